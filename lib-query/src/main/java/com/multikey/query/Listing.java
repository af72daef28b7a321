package com.multikey.query;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.KeyOrder;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What every reader of one page reads by, and the rule that lists an item under one value of the sorted field, so that every
 * way of reading lists an item alike. It holds no page state: each reader returns what it listed ({@link Part}).
 */
record Listing(PageRequest request, Target target, ItemTests tests, IndexProjector projector) {

    /** DynamoDB's order of string keys: their UTF-8 bytes, unsigned. */
    static final Comparator<String> KEY_ORDER = KeyOrder.UTF8;

    /** The sorted field as {@link Explain} names it: the entry, or the index's attribute path. */
    String sortFieldName() {
        return request.attribId().isEmpty() ? target.index().values().path().toString() : request.attribId();
    }

    boolean ascending() {
        return request.order() == Order.ASC;
    }

    /** The order of sort keys in the page: ascending or descending bytes. */
    Comparator<String> keyOrder() {
        return ascending() ? KEY_ORDER : KEY_ORDER.reversed();
    }

    /**
     * The index item of the sorted field an item is listed under: among its index items in the request's partition (of
     * the request's project, in the field-partitioned grid) whose value passes the filter and the sorted field's
     * predicates, the first in page order; empty when it has none.
     */
    Optional<IndexItem> listing(ItemKey key, Map<String, AttributeValue> item) {
        Comparator<IndexItem> order = Comparator.comparing(IndexItem::sortKey, keyOrder());
        return inPartition(key, item).stream()
                .filter(indexItem -> request.filter().map(f -> f.matches(indexItem.value(), target.bounds())).orElse(true))
                .filter(indexItem -> tests.sortValueMatches(indexItem.value()))
                .min(order);
    }

    /** The item's index items in the request's partition (of the request's project, in the field-partitioned grid). */
    private List<IndexItem> inPartition(ItemKey key, Map<String, AttributeValue> item) {
        return projector.projectEntry(target.index().name(), key, item, request.attribId()).items().stream()
                .filter(indexItem -> indexItem.attribId().equals(target.partition()) && target.project()
                        .map(project -> project.equals(indexItem.toItem().get(IndexItem.PROJECT).s())).orElse(true))
                .toList();
    }

    /** How many index items the item has in the request's partition: its distinct values of the sorted field. */
    int values(ItemKey key, Map<String, AttributeValue> item) {
        return inPartition(key, item).size();
    }

    /** How a page that read only items lacking the sorted field (or nothing) is explained. */
    Part.Explained tailExplained() {
        return new Part.Explained(new Plan.Tail(sortFieldName()), "the items lacking " + sortFieldName()
                + " (the missing tail), each tested", List.of());
    }
}
