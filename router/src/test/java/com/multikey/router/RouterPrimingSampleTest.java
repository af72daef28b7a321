package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.ChangeRecord;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What priming runs through with the packaged definitions: the events of an issue created and updated and of a layer
 * expired by TTL, as the router sends them (what priming sends nothing of is {@link RouterPrimingTest}'s).
 */
class RouterPrimingSampleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void sampleRecords_becomeAnIssueCreatedAndUpdated_andALayerExpired_withTheirImages() throws Exception {
        // given
        RouterConfig config = new RouterConfig("bus", "multikey.app-table", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true,
                RouterConfig.DEFAULT_MAX_ENTRY_BYTES);
        List<DynamodbStreamRecord> samples = RouterPriming.sampleRecords(config.definitions().table());

        // when
        List<ChangeEvent> events = samples.stream().map(record -> new ChangeEventFactory(config).toEvent(ChangeRecord.from(record))).toList();

        // then
        assertThat(events).extracting(ChangeEvent::detailType).containsExactly("Issue Created", "Issue Updated", "Layer Expired");
        assertThat(events).extracting(ChangeEvent::itemKey)
                .containsExactly("{\"id\":\"issue#priming\"}", "{\"id\":\"issue#priming\"}", "{\"id\":\"layer#us-east-1#priming#1\"}");
        JsonNode updated = JSON.readTree(events.get(1).detail());
        assertThat(updated.get("changedAttributes").toString()).isEqualTo("[\"name\"]");
        assertThat(updated.has("oldImage")).isTrue();
        assertThat(updated.at("/newImage/name").asText()).isEqualTo("renamed");
        JsonNode expired = JSON.readTree(events.get(2).detail());
        assertThat(expired.at("/oldImage/arn").asText()).isEqualTo("arn:aws:lambda:us-east-1:123456789012:layer:priming:1");
        assertThat(events).extracting(ChangeEvent::eventId).doesNotContainNull().doesNotHaveDuplicates();
        assertThat(samples).allSatisfy(record -> assertThat(record.getEventSource()).isEqualTo("aws:dynamodb"));
    }

    @Test
    void register_returnsTheHookItRegistered_whichPrimesWithTheEnvironmentItWasGiven() {
        Map<String, String> env = Map.of("EVENT_BUS_NAME", "app-events", "TABLE_ARN", RouterFixtures.TABLE_ARN, "AWS_REGION", "us-east-1");

        assertThat(RouterPriming.register(env).prime()).isEqualTo(3);
    }
}
