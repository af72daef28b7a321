package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An index table in memory, for the few calls {@link GridLayoutStore} makes: GetItem, PutItem with the conditions it
 * writes ({@code attribute_not_exists(#a)} and {@code #a = :v AND ...}), and Scan with a filter of
 * {@code attribute_exists}/{@code attribute_not_exists} terms, in pages of at most {@code pageSize} items evaluated
 * (DynamoDB cuts a page at its limit or at 1 MB, before the filter).
 */
final class InMemoryIndexTable implements DynamoDbClient {

    private static final Pattern EQUALS = Pattern.compile("(#\\w+) = (:\\w+)");
    private static final Pattern EXISTS = Pattern.compile("attribute_(not_)?exists\\((#\\w+)\\)");

    private final TreeMap<String, Map<String, AttributeValue>> items = new TreeMap<>();
    private final int pageSize;
    int gets;
    int puts;
    int scans;
    /** Runs before the next conditional put is checked: another function's write in between. */
    Runnable beforeNextPut = () -> {
    };

    InMemoryIndexTable(int pageSize) {
        this.pageSize = pageSize;
    }

    void put(Map<String, AttributeValue> item) {
        items.put(key(item), Map.copyOf(item));
    }

    Map<String, AttributeValue> get(String attribId, String sortKey) {
        return items.get(attribId + "\u0000" + sortKey);
    }

    private static String key(Map<String, AttributeValue> item) {
        return item.get(IndexKey.ATTRIB_ID).s() + "\u0000" + item.get(IndexKey.SORT_KEY).s();
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        gets++;
        Map<String, AttributeValue> item = items.get(key(request.key()));
        return item == null ? GetItemResponse.builder().build() : GetItemResponse.builder().item(item).build();
    }

    @Override
    public PutItemResponse putItem(PutItemRequest request) {
        puts++;
        Runnable before = beforeNextPut;
        beforeNextPut = () -> {
        };
        before.run();
        Map<String, AttributeValue> stored = items.get(key(request.item()));
        if (request.conditionExpression() != null && !holds(request.conditionExpression(), stored, request.expressionAttributeNames(),
                request.expressionAttributeValues())) {
            throw ConditionalCheckFailedException.builder().message("The conditional request failed").build();
        }
        put(request.item());
        return PutItemResponse.builder().build();
    }

    @Override
    public ScanResponse scan(ScanRequest request) {
        scans++;
        List<String> keys = new ArrayList<>(request.hasExclusiveStartKey()
                ? items.tailMap(key(request.exclusiveStartKey()), false).keySet() : items.keySet());
        int evaluated = Math.min(keys.size(), Math.min(pageSize, request.limit() == null ? Integer.MAX_VALUE : request.limit()));
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        for (String key : keys.subList(0, evaluated)) {
            Map<String, AttributeValue> item = items.get(key);
            if (request.filterExpression() == null || holds(request.filterExpression(), item, request.expressionAttributeNames(), Map.of())) {
                found.add(item);
            }
        }
        ScanResponse.Builder page = ScanResponse.builder().items(found).count(found.size()).scannedCount(evaluated);
        if (evaluated < keys.size()) {
            Map<String, AttributeValue> last = items.get(keys.get(evaluated - 1));
            page.lastEvaluatedKey(Map.of(IndexKey.ATTRIB_ID, last.get(IndexKey.ATTRIB_ID), IndexKey.SORT_KEY, last.get(IndexKey.SORT_KEY)));
        }
        return page.build();
    }

    /** A conjunction of {@code #n = :v}, {@code attribute_exists(#n)} and {@code attribute_not_exists(#n)} terms. */
    private static boolean holds(String expression, Map<String, AttributeValue> item, Map<String, String> names,
                                 Map<String, AttributeValue> values) {
        for (String term : expression.split(" AND ")) {
            Matcher equals = EQUALS.matcher(term.trim());
            Matcher exists = EXISTS.matcher(term.trim());
            if (equals.matches()) {
                AttributeValue actual = item == null ? null : item.get(names.get(equals.group(1)));
                if (actual == null || !actual.equals(values.get(equals.group(2)))) {
                    return false;
                }
            } else if (exists.matches()) {
                boolean present = item != null && item.containsKey(names.get(exists.group(2)));
                if (present == (exists.group(1) != null)) {
                    return false;
                }
            } else {
                throw new IllegalArgumentException("the fake does not evaluate '" + term + "'");
            }
        }
        return true;
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {
    }
}
