package com.multikey.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Publishes counts as one CloudWatch embedded metric format (EMF) line on standard output; CloudWatch
 * Logs turns it into metrics in {@code namespace} with the dimension {@code service}.
 *
 * <p>Written directly rather than through powertools-metrics (or the EMF client library under it): its
 * {@code MetricsFactory} keeps one process-wide metrics instance, one namespace and one {@code service} per
 * JVM, while the local runtime runs all three functions in one JVM, each with its own {@code service}
 * dimension; and outside Lambda the EMF library picks its sink by probing the environment and sends to a
 * CloudWatch agent over TCP, so local runs and tests would lose the lines. Every function publishes
 * through its own {@code …Metrics.emf(EmfMetrics)}. The format is small and specified:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 */
public final class EmfMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String namespace;
    private final String service;
    private final PrintStream out;
    private final Clock clock;

    public EmfMetrics(String namespace, String service, PrintStream out, Clock clock) {
        this.namespace = namespace;
        this.service = service;
        this.out = out;
        this.clock = clock;
    }

    public static EmfMetrics toStandardOutput(String namespace, String service) {
        return new EmfMetrics(namespace, service, System.out, Clock.systemUTC());
    }

    /** One line with every count, unit {@code Count}. */
    public void publish(Map<String, ? extends Number> counts) {
        publish(Map.of(), counts);
    }

    /**
     * One line with every count, unit {@code Count}, under the dimension {@code service} and the given further
     * dimensions (e.g. {@code drift=missing}): CloudWatch keys each metric by all of them together.
     */
    public void publish(Map<String, String> dimensions, Map<String, ? extends Number> counts) {
        List<Map<String, String>> definitions = new ArrayList<>();
        for (String name : counts.keySet()) {
            Map<String, String> definition = new LinkedHashMap<>();
            definition.put("Name", name);
            definition.put("Unit", "Count");
            definitions.add(definition);
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("_aws", Map.of(
                "Timestamp", clock.millis(),
                "CloudWatchMetrics", List.of(Map.of(
                        "Namespace", namespace,
                        "Dimensions", List.of(dimensionNames(dimensions)),
                        "Metrics", definitions))));
        line.put("service", service);
        line.putAll(dimensions);
        line.putAll(counts);
        try {
            out.println(JSON.writeValueAsString(line));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("metric line could not be serialised", e);
        }
    }

    private static List<String> dimensionNames(Map<String, String> dimensions) {
        List<String> names = new ArrayList<>();
        names.add("service");
        names.addAll(new java.util.TreeSet<>(dimensions.keySet()));
        return names;
    }
}
