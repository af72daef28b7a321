package com.multikey.cli;

import com.multikey.clikit.Failure;

import java.net.URI;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment {@link com.multikey.common.ClientFactory} builds the SDK clients from: the process's, with the
 * endpoints the command line gave ({@code AWS_ENDPOINT_URL_<SERVICE>}) and, for a local stack, a region and
 * stand-in credentials. Refuses an endpoint that is no URL and a missing region with what to do.
 */
final class ClientEnvironment {

    /** An endpoint option as given, and the services it stands for. */
    record Endpoint(String option, String url, List<String> serviceIds) {
    }

    private ClientEnvironment() {
    }

    static Map<String, String> of(Map<String, String> process, List<Endpoint> endpoints) {
        Map<String, String> env = new HashMap<>(process);
        boolean local = false;
        for (Endpoint endpoint : endpoints) {
            if (endpoint.url() == null) {
                continue;
            }
            check(endpoint);
            endpoint.serviceIds().forEach(id -> env.put("AWS_ENDPOINT_URL_" + id, endpoint.url()));
            local = true;
        }
        if (local) {
            env.putIfAbsent("AWS_REGION", "us-east-1");
            env.putIfAbsent("AWS_ACCESS_KEY_ID", "local");
            env.putIfAbsent("AWS_SECRET_ACCESS_KEY", "local");
        }
        String region = env.get("AWS_REGION");
        if (region == null || region.isBlank()) {
            throw Failure.usage("AWS_REGION is not set: export AWS_REGION=<the stack's region>, or pass --endpoint for a local stack");
        }
        return env;
    }

    /** The endpoints given, by option, for error lines. */
    static Map<String, String> given(List<Endpoint> endpoints) {
        Map<String, String> given = new LinkedHashMap<>();
        endpoints.stream().filter(e -> e.url() != null).forEach(e -> given.put(e.option(), e.url()));
        return given;
    }

    private static void check(Endpoint endpoint) {
        URI uri;
        try {
            uri = URI.create(endpoint.url());
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw Failure.usage(endpoint.option() + ": '" + endpoint.url() + "' is not an endpoint URL such as http://localhost:8000");
        }
    }
}
