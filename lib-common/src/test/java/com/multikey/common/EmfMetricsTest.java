package com.multikey.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EmfMetricsTest {

    @Test
    void publish_writesOneEmbeddedMetricFormatLine() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC);
        Map<String, Number> counts = new LinkedHashMap<>();
        counts.put("Records", 5);
        counts.put("IndexPuts", 6L);

        new EmfMetrics("Multikey", "stream-indexer", new PrintStream(out, true, StandardCharsets.UTF_8), clock).publish(counts);

        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text.lines()).hasSize(1);
        JsonNode line = new ObjectMapper().readTree(text);
        JsonNode directive = line.get("_aws").get("CloudWatchMetrics").get(0);
        assertThat(line.get("_aws").get("Timestamp").asLong()).isEqualTo(1_700_000_000_123L);
        assertThat(directive.get("Namespace").asText()).isEqualTo("Multikey");
        assertThat(directive.get("Dimensions").toString()).isEqualTo("[[\"service\"]]");
        assertThat(directive.get("Metrics").toString()).contains("{\"Name\":\"Records\",\"Unit\":\"Count\"}");
        assertThat(directive.get("Metrics")).hasSize(2);
        assertThat(line.get("service").asText()).isEqualTo("stream-indexer");
        assertThat(line.get("Records").asInt()).isEqualTo(5);
        assertThat(line.get("IndexPuts").asLong()).isEqualTo(6);
    }

    @Test
    void publish_withFurtherDimensions_keysTheMetricsByServiceAndThem() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC);

        new EmfMetrics("Multikey", "reindex-worker", new PrintStream(out, true, StandardCharsets.UTF_8), clock)
                .publish(Map.of("drift", "missing"), Map.of("IndexDrift", 3L));

        JsonNode line = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Dimensions").toString()).isEqualTo("[[\"service\",\"drift\"]]");
        assertThat(line.get("drift").asText()).isEqualTo("missing");
        assertThat(line.get("IndexDrift").asLong()).isEqualTo(3);
    }
}
