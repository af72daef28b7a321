package com.multikey.index;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static com.multikey.index.SortKeyCodec.MAX_ISSUE_ID_BYTES;
import static com.multikey.index.SortKeyCodec.MAX_KEY_BYTES;
import static com.multikey.index.SortKeyCodec.MAX_VALUE_BYTES;
import static com.multikey.index.SortKeyCodec.SEPARATOR;

/**
 * Sort keys put together from their encoded parts, joined by the separator, in the two layouts of an index: a grouped
 * index's {@code value SEP tie-breaker SEP ... item key}, and the issue grid's field-partitioned
 * {@code value SEP num SEP issueId}.
 */
final class KeyAssembly {

    private KeyAssembly() {
    }

    /** See {@link SortKeyCodec#valueBudget}. */
    static int valueBudget(IndexDefinition index, KeySchema table) {
        int tieBreakers = index.orderBy().stream().mapToInt(tieBreaker -> tieBreaker.maxBytes() + 1).sum();
        return MAX_KEY_BYTES - 1 - tieBreakers - table.maxItemKeyBytes();
    }

    /** See {@link SortKeyCodec#encodeGrouped}. */
    static String grouped(IndexValue value, int valueBytes, List<Map.Entry<IndexValue, Integer>> tieBreakers, String itemKey) {
        StringBuilder key = new StringBuilder(ValueEncoding.encode(value, valueBytes)).append(SEPARATOR);
        for (Map.Entry<IndexValue, Integer> tieBreaker : tieBreakers) {
            if (tieBreaker.getKey() != null) {
                key.append(ValueEncoding.encode(tieBreaker.getKey(), tieBreaker.getValue()));
            }
            key.append(SEPARATOR);
        }
        return key.append(itemKey).toString();
    }

    /** See {@link SortKeyCodec#encodeItemKey}. */
    static String itemKey(ItemKey key) {
        StringBuilder out = new StringBuilder();
        for (AttributeValue part : key.attributes().values()) {
            if (!out.isEmpty()) {
                out.append(SEPARATOR);
            }
            switch (part.type()) {
                case S -> TextEncoding.appendEscaped(out, part.s());
                case N -> out.append(NumberEncoding.encode(new BigDecimal(part.n())));
                case B -> out.append(HexFormat.of().formatHex(part.b().asByteArrayUnsafe()));
                default -> throw new IllegalArgumentException("a key attribute of type " + part.type());
            }
        }
        return out.toString();
    }

    /** See {@link SortKeyCodec#encode}: the issue id comes last, unescaped, as nothing follows it. */
    static String fieldPartitioned(IndexValue value, BigDecimal num, String issueId) {
        if (TextEncoding.utf8Length(issueId) > MAX_ISSUE_ID_BYTES) {
            throw new UnindexableValueException("issue id longer than " + MAX_ISSUE_ID_BYTES + " bytes");
        }
        return ValueEncoding.encode(value, MAX_VALUE_BYTES) + SEPARATOR + NumberEncoding.encode(num) + SEPARATOR + issueId;
    }
}
