package com.multikey.index;

import com.multikey.index.definition.KeySchema;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ItemKeyTest {

    private static final KeySchema PK_SK = new KeySchema(new KeySchema.KeyAttribute("pk", KeySchema.KeyType.S),
            Optional.of(new KeySchema.KeyAttribute("sk", KeySchema.KeyType.N)), KeySchema.DEFAULT_MAX_ITEM_KEY_BYTES);

    @Test
    void toString_whenOneStringAttribute_isTheValueItself() {
        assertThat(ItemKey.ofString("id", "issue#020e")).hasToString("issue#020e");
    }

    @Test
    void toString_whenSeveralAttributes_isNameValuePairsInKeyOrder() {
        // when
        ItemKey key = ItemKey.of(PK_SK, Map.of("sk", AttributeValue.fromN("42"), "pk", AttributeValue.fromS("PROJECT#p1"),
                "title", AttributeValue.fromS("x"))).orElseThrow();

        // then
        assertThat(key).hasToString("pk=PROJECT#p1 sk=42");
        assertThat(key.toKey()).containsOnlyKeys("pk", "sk").containsEntry("sk", AttributeValue.fromN("42"));
    }

    @Test
    void toString_whenABinaryOrNumberKeyAlone_isItsText() {
        // given
        KeySchema binary = new KeySchema(new KeySchema.KeyAttribute("id", KeySchema.KeyType.B), Optional.empty(), 64);
        KeySchema number = new KeySchema(new KeySchema.KeyAttribute("id", KeySchema.KeyType.N), Optional.empty(), 64);

        // then
        assertThat(ItemKey.of(binary, Map.of("id", AttributeValue.fromB(SdkBytes.fromUtf8String("ab"))))).get().hasToString("id=YWI=");
        assertThat(ItemKey.of(number, Map.of("id", AttributeValue.fromN("7")))).get().hasToString("id=7");
    }

    @Test
    void of_whenAKeyAttributeIsMissingOrOfAnotherType_isEmpty() {
        assertThat(ItemKey.of(PK_SK, Map.of("pk", AttributeValue.fromS("p")))).isEmpty();
        assertThat(ItemKey.of(PK_SK, Map.of("pk", AttributeValue.fromS("p"), "sk", AttributeValue.fromS("42")))).isEmpty();
        assertThat(ItemKey.of(PK_SK, null)).isEmpty();
    }

    @Test
    void itemKeyText_ofAnIndexItem_isItsSourceKeyAsText() {
        // given
        IndexItem item = IndexItem.of("f1", new IndexValue.Text("x"), "issue#7", "p1", java.math.BigDecimal.ONE);

        // then
        assertThat(item.itemKeyText()).isEqualTo("issue#7");
    }

    @Test
    void fieldPartitioned_whenTheSourceKeyIsNotOneString_refuses() {
        // given
        ItemKey pkSk = ItemKey.of(PK_SK, Map.of("pk", AttributeValue.fromS("p"), "sk", AttributeValue.fromN("1"))).orElseThrow();

        // then
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IndexItem.fieldPartitioned("custom_fields", pkSk, "f1",
                new IndexValue.Text("x"), "p1", java.math.BigDecimal.ONE)).isInstanceOf(IllegalArgumentException.class).hasMessage("not a one-string key");
    }

    @Test
    void normalized_spellsNumbersCanonically_insideListsAndMapsToo() {
        // when
        Map<String, AttributeValue> normalized = IndexItem.normalized(Map.of("n", AttributeValue.fromN("1.50"),
                "l", AttributeValue.fromL(List.of(AttributeValue.fromN("2.0"), AttributeValue.fromS("2.0"))),
                "m", AttributeValue.fromM(Map.of("k", AttributeValue.fromN("3.00")))));

        // then
        assertThat(normalized).containsEntry("n", AttributeValue.fromN("1.5"))
                .containsEntry("l", AttributeValue.fromL(List.of(AttributeValue.fromN("2"), AttributeValue.fromS("2.0"))))
                .containsEntry("m", AttributeValue.fromM(Map.of("k", AttributeValue.fromN("3"))));
    }
}
