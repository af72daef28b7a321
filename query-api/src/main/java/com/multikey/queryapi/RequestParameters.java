package com.multikey.queryapi;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A request's query parameters once checked against the names its route knows: an unknown name, or one given more than
 * once that the route does not repeat, is a 400 naming it.
 */
record RequestParameters(Map<String, List<String>> values) {

    /**
     * The request's parameters.
     *
     * @param known      the names the route reads
     * @param repeatable the names it reads each value of, in its place
     * @throws Problem naming an unknown or repeated parameter
     */
    static RequestParameters of(QueryApi.Request request, Set<String> known, Set<String> repeatable) {
        for (Map.Entry<String, List<String>> parameter : request.parameters().entrySet()) {
            if (!known.contains(parameter.getKey())) {
                throw Problem.badRequest(parameter.getKey(), "unknown parameter" + (known.isEmpty() ? "" : "; known: "
                        + known.stream().sorted().toList()));
            }
            if (!repeatable.contains(parameter.getKey()) && parameter.getValue().size() > 1) {
                throw Problem.badRequest(parameter.getKey(), "given more than once");
            }
        }
        return new RequestParameters(request.parameters());
    }

    /** The names of both sets. */
    static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    Optional<String> optional(String name) {
        List<String> given = values.getOrDefault(name, List.of());
        return given.isEmpty() ? Optional.empty() : Optional.of(given.get(0));
    }

    String required(String name) {
        return optional(name).filter(value -> !value.isEmpty()).orElseThrow(() -> Problem.badRequest(name, "required"));
    }

    List<String> all(String name) {
        return new ArrayList<>(values.getOrDefault(name, List.of()));
    }
}
