package com.multikey.redrive;

import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexScope;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which records of a range the indexer's redrive repairs: issues only, every image of each, in stream order. */
class IndexerRedriveTest {

    private static Record record(String sequenceNumber, AttributeValue id, Map<String, AttributeValue> oldImage,
                                 Map<String, AttributeValue> newImage) {
        return Record.builder().dynamodb(d -> {
            d.sequenceNumber(sequenceNumber).keys(Map.of("id", id));
            if (oldImage != null) {
                d.oldImage(oldImage);
            }
            if (newImage != null) {
                d.newImage(newImage);
            }
        }).build();
    }

    private static Map<String, AttributeValue> image(String id, String marker) {
        return Map.of("id", AttributeValue.fromS(id), "m", AttributeValue.fromS(marker));
    }

    @Test
    void imagesByItem_leavesOutWhatIsNotAnIssue_andKeepsADeletedIssuesOldImage() {
        List<Record> records = List.of(
                record("9", AttributeValue.fromS("issue#1"), null, image("issue#1", "v1")),
                record("10", AttributeValue.fromS("layer#1"), null, image("layer#1", "x")),
                record("11", AttributeValue.fromS("issues#2"), null, image("issues#2", "x")),
                record("12", AttributeValue.fromN("7"), null, Map.of("id", AttributeValue.fromN("7"))),
                record("100", AttributeValue.fromS("issue#1"), image("issue#1", "v1"), image("issue#1", "v2")),
                record("101", AttributeValue.fromS("issue#2"), image("issue#2", "gone"), null));

        Map<ItemKey, List<Map<String, AttributeValue>>> images = IndexerRedrive.imagesByItem(records, IndexScope.all(IndexDefinitions.packaged()));

        assertThat(images).containsOnlyKeys(ItemKey.ofString("id", "issue#1"), ItemKey.ofString("id", "issue#2"));
        assertThat(images.get(ItemKey.ofString("id", "issue#1"))).extracting(i -> i.get("m").s()).containsExactly("v1", "v1", "v2");
        assertThat(images.get(ItemKey.ofString("id", "issue#2"))).extracting(i -> i.get("m").s()).containsExactly("gone");
    }
}
