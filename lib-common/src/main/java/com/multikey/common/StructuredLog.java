package com.multikey.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.PrintStream;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSON object per line on standard output, which Lambda ships to CloudWatch Logs and Logs Insights
 * queries by field. Callers pass keys, counts and reasons only, never image content.
 */
public final class StructuredLog {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String logger;
    private final PrintStream out;
    private final Clock clock;

    public StructuredLog(String logger, PrintStream out, Clock clock) {
        this.logger = logger;
        this.out = out;
        this.clock = clock;
    }

    public static StructuredLog forClass(Class<?> type) {
        return new StructuredLog(type.getSimpleName(), System.out, Clock.systemUTC());
    }

    public void info(String message, Map<String, ?> fields) {
        write("INFO", message, fields);
    }

    public void warn(String message, Map<String, ?> fields) {
        write("WARN", message, fields);
    }

    public void error(String message, Map<String, ?> fields) {
        write("ERROR", message, fields);
    }

    private void write(String level, String message, Map<String, ?> fields) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("timestamp", clock.instant().toString());
        line.put("level", level);
        line.put("logger", logger);
        line.put("message", message);
        line.putAll(fields);
        try {
            out.println(JSON.writeValueAsString(line));
        } catch (JsonProcessingException e) {
            out.println("{\"level\":\"" + level + "\",\"logger\":\"" + logger
                    + "\",\"message\":\"log line could not be serialised\"}");
        }
    }
}
