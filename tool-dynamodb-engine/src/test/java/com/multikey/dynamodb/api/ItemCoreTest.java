package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.table.KeyElement;
import com.multikey.dynamodb.table.KeySchema;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.table.TableDefinition;
import com.multikey.dynamodb.value.Value;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The item core's put: an item is checked against its table once, when the put is made ({@link ItemCore.Put#of}), with the
 * messages of PutItem; every request that stores an item (PutItem, BatchWriteItem, a transaction, a PartiQL INSERT) makes
 * its put that way.
 */
class ItemCoreTest {

    private final Table table = new Table(new TableDefinition("t", new KeySchema(new KeyElement("id", "S"), Optional.empty()),
            Map.of("id", "S"), List.of(), null), "arn:aws:dynamodb:us-east-1:000000000000:table/t", "id", Instant.EPOCH);

    @Test
    void putOf_whenTheItemLacksTheTablesKey_throwsPutItemsValidation() {
        // given
        Map<String, Value> item = Map.of("name", new Value.S("a"));

        // when / then
        assertThatThrownBy(() -> ItemCore.Put.of(table, item)).isInstanceOf(EngineException.class)
                .hasMessage("One or more parameter values were invalid: Missing the key id in the item");
    }

    @Test
    void putOf_whenTheKeyIsOfAnotherType_throwsPutItemsValidation() {
        // given
        Map<String, Value> item = Map.of("id", new Value.N(BigDecimal.ONE));

        // when / then
        assertThatThrownBy(() -> ItemCore.Put.of(table, item)).isInstanceOf(EngineException.class)
                .hasMessage("One or more parameter values were invalid: Type mismatch for key id expected: S actual: N");
    }

    @Test
    void putOf_whenTheItemFits_isPlannedAndWritten_withItsKey() {
        // given
        Map<String, Value> item = Map.of("id", new Value.S("a"), "name", new Value.S("b"));

        // when
        ItemCore.Planned planned = ItemCore.write(table, ItemCore.Put.of(table, item), Optional.empty(), false, Instant.EPOCH);

        // then
        assertThat(planned.write().key()).isEqualTo(Map.of("id", new Value.S("a")));
        assertThat(planned.old()).isNull();
        assertThat(ItemCore.get(table, Map.of("id", new Value.S("a")))).isEqualTo(item);
    }
}
