package com.multikey.query;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.KeyOrder;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The page being filled: its items in order and the value each was listed under, what earlier pages knew and this one
 * learns (the sorted index's yield, the predicates' hit rates on its candidates), and how it was read, for
 * {@link Explain}. The rule that lists an item under one value of the sorted field lives here, so that every way of
 * reading lists an item alike.
 */
final class PageFill {

    /** DynamoDB's order of string keys: their UTF-8 bytes, unsigned. */
    static final Comparator<String> KEY_ORDER = KeyOrder.UTF8;

    final PageRequest request;
    final Target target;
    final ItemTests tests;
    final IndexProjector projector;
    final List<Map<String, AttributeValue>> items = new ArrayList<>();
    /** The value each item of the index part was listed under, in page order. */
    final List<AttributeValue> values = new ArrayList<>();
    /** What earlier pages knew, and what this one learns. */
    Knowledge learned;
    /** The index items read from the sorted field's index on this page, and the items listed from them. */
    long sortRead;
    long sortListed;
    /** Candidates of the sorted field's index read on this page and, per predicate, how many satisfied it. */
    int sampled;
    final Map<Integer, Integer> hits = new HashMap<>();
    Explain.Plan plan;
    String reason;
    final List<Explain.Alternative> alternatives = new ArrayList<>();

    PageFill(PageRequest request, Target target, ItemTests tests, IndexProjector projector, Knowledge known) {
        this.request = request;
        this.target = target;
        this.tests = tests;
        this.projector = projector;
        this.learned = known;
        this.plan = new Explain.Plan.SortIndex(sortFieldName());
        this.reason = tests.isEmpty() ? "no predicates: the sorted field's index in page order" : "";
    }

    String sortFieldName() {
        return request.attribId().isEmpty() ? target.index().values().path().toString() : request.attribId();
    }

    boolean isFull() {
        return items.size() >= request.pageSize();
    }

    int need() {
        return request.pageSize() - items.size();
    }

    boolean ascending() {
        return request.order() == Order.ASC;
    }

    /** The order of sort keys in the page: ascending or descending bytes. */
    Comparator<String> keyOrder() {
        return ascending() ? KEY_ORDER : KEY_ORDER.reversed();
    }

    void add(Map<String, AttributeValue> item, AttributeValue listedUnder) {
        items.add(item);
        values.add(listedUnder);
    }

    /** An item of the missing tail: listed under no value. */
    void addLacking(Map<String, AttributeValue> item) {
        items.add(item);
    }

    void clear() {
        items.clear();
        values.clear();
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

    /** Counts, for each driver, whether a candidate read from the sorted field's index satisfies its predicate. */
    void sample(List<Driver> drivers, ItemKey key, Map<String, AttributeValue> item) {
        if (drivers.isEmpty()) {
            return;
        }
        sampled++;
        for (Driver driver : drivers) {
            if (tests.matches(driver.predicate(), key, item)) {
                hits.merge(driver.position(), 1, Integer::sum);
            }
        }
    }

    /** The share of sampled candidates that satisfied a predicate, smoothed. */
    double hitRate(Driver driver) {
        return (hits.getOrDefault(driver.position(), 0) + 1.0) / (sampled + 2.0);
    }

    void explainTail() {
        plan = new Explain.Plan.SortIndex(sortFieldName());
        reason = "the items lacking " + sortFieldName() + " (the missing tail), each tested";
    }

    Explain explain(PageReads reads) {
        List<Explain.Alternative> weighed = alternatives.isEmpty()
                ? List.of(new Explain.Alternative(plan.describe(), reads.examined(), "read")) : alternatives;
        return new Explain(plan.describe(), reason, weighed, reads.counts(),
                Suggestion.of(request, target.index(), tests, reads.examined(), isFull()));
    }
}
