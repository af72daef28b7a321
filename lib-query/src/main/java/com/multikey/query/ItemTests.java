package com.multikey.query;

import com.multikey.index.FieldValues;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.ItemKey;
import com.multikey.index.UnindexableValueException;
import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a request's predicates are tested on an item: which field each names, the values an item holds there, and
 * whether the item satisfies them. The sorted field's predicates choose the value an item is listed under (its first
 * value in page order that satisfies them all); the other fields' predicates decide whether it is listed at all.
 *
 * <p>An entry of the index's map has the values the indexer gives it (the same projection, so an item is "missing" a
 * field exactly when the index holds no item for it); an attribute ({@code @path}) has the values of
 * {@link FieldValues#of}, none when it is absent, null or of a type no index holds.
 */
final class ItemTests {

    private final IndexProjector projector;
    private final IndexDefinition index;
    private final List<AttributeValue> group;
    private final String sortEntry;
    /** The project an item of the field-partitioned grid must be of; empty for a grouped index. */
    private final Optional<String> project;
    private final Map<String, List<Predicate>> byField = new LinkedHashMap<>();
    /**
     * The request's expressions of {@code and}, {@code or} and {@code not}: each tested on the whole item (a value of the
     * sorted field satisfying one does not choose the value the item is listed under; its predicates on a field hold for some
     * value of the field, {@link #matches(Expression, ItemKey, Map)}).
     */
    private final List<Expression> residual = new ArrayList<>();

    /** @param where the request's where's: predicates, and expressions of them tested on the whole item */
    ItemTests(IndexProjector projector, IndexDefinition index, List<AttributeValue> group, String sortEntry, Optional<String> project,
              List<? extends Expression> where) {
        this.projector = projector;
        this.index = index;
        this.group = group;
        this.sortEntry = sortEntry;
        this.project = project;
        for (Expression expression : where) {
            if (expression instanceof Predicate predicate) {
                byField.computeIfAbsent(identity(predicate.field()), f -> new ArrayList<>()).add(predicate);
            } else {
                residual.add(expression);
            }
        }
    }

    /**
     * The one name of the field a predicate names, however it is spelled: an entry of the index's map by its name, whether
     * written plainly ({@code status}) or as an attribute path into the map ({@code @custom_fields.status}); any other
     * attribute as {@code @} and its path, whether written with {@code @} or plainly (an index of one attribute or of a
     * list's elements has no entries). So {@code @labels} on an index of the elements of {@code labels} is the sorted field
     * itself, and two spellings of one field are one field: one value must satisfy every predicate on it. A field that names
     * no attribute path stays as written ({@link IndexQuery} refuses it).
     */
    String identity(String field) {
        if (entries() && !field.startsWith("@")) {
            return field;
        }
        AttributePath path;
        try {
            path = attributePath(field);
        } catch (com.multikey.index.definition.DefinitionException e) {
            return field;
        }
        List<String> map = index.values().path().names();
        if (entries() && path.names().size() == map.size() + 1 && path.names().subList(0, map.size()).equals(map)) {
            return path.names().get(map.size());
        }
        return "@" + path;
    }

    boolean isEmpty() {
        return byField.isEmpty() && residual.isEmpty();
    }

    /** The request's expressions of {@code and}, {@code or} and {@code not}, tested on each item. */
    List<Expression> residual() {
        return List.copyOf(residual);
    }

    /** Whether the item satisfies every expression of {@code and}, {@code or} and {@code not}. */
    private boolean residualMatches(ItemKey key, Map<String, AttributeValue> item) {
        for (Expression expression : residual) {
            if (!matches(expression, key, item)) {
                return false;
            }
        }
        return true;
    }

    private boolean entries() {
        return index.values() instanceof ValueSource.MapEntries;
    }

    /** Whether a field (in any spelling) is the one the request sorts by. */
    boolean isSortField(String field) {
        String identity = identity(field);
        return entries() ? identity.equals(sortEntry) : identity.equals("@" + index.values().path());
    }

    /** Whether a field (in any spelling) names an entry of the index's map (else an attribute of the item). */
    boolean isEntry(String field) {
        return entries() && !identity(field).startsWith("@");
    }

    /** The entry of the index's map a field names ({@link #isEntry}), by its name. */
    String entryName(String field) {
        return identity(field);
    }

    /** The attribute path a field names when it is not an entry. */
    AttributePath attributePath(String field) {
        return AttributePath.parse(field.startsWith("@") ? field.substring(1) : field, "field '" + field + "'");
    }

    /** The predicates on the sorted field. */
    List<Predicate> onSortField() {
        return byField.entrySet().stream().filter(e -> isSortField(e.getKey())).flatMap(e -> e.getValue().stream()).toList();
    }

    /** Whether the sorted field must be missing: only the missing tail can match. */
    boolean sortFieldMissing() {
        return onSortField().stream().anyMatch(p -> p instanceof Predicate.Missing);
    }

    /** Whether a value of the sorted field satisfies every predicate on it. */
    boolean sortValueMatches(IndexValue value) {
        for (Predicate predicate : onSortField()) {
            if (!predicate.test(value)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the item satisfies the predicates of every field but the sorted one. */
    boolean othersMatch(ItemKey key, Map<String, AttributeValue> item) {
        for (Map.Entry<String, List<Predicate>> field : byField.entrySet()) {
            if (!isSortField(field.getKey()) && !fieldMatches(values(field.getKey(), key, item), field.getValue())) {
                return false;
            }
        }
        return residualMatches(key, item);
    }

    /** Whether the item satisfies every predicate, the sorted field's too (for an item listed without a sort value). */
    boolean allMatch(ItemKey key, Map<String, AttributeValue> item) {
        for (Map.Entry<String, List<Predicate>> field : byField.entrySet()) {
            if (!fieldMatches(values(field.getKey(), key, item), field.getValue())) {
                return false;
            }
        }
        return residualMatches(key, item);
    }

    /** Whether the item satisfies one predicate alone (a sample of a predicate's selectivity). */
    boolean matches(Predicate predicate, ItemKey key, Map<String, AttributeValue> item) {
        return fieldMatches(values(identity(predicate.field()), key, item), List.of(predicate));
    }

    /**
     * Whether the item satisfies an expression: a predicate on its field's values; {@code and}, its operands (its predicates on
     * one field by one value of the field, as a request's are); {@code or}, one of them; {@code not}, not its operand.
     */
    boolean matches(Expression expression, ItemKey key, Map<String, AttributeValue> item) {
        return switch (expression) {
            case Predicate predicate -> matches(predicate, key, item);
            case Expression.And and -> {
                Map<String, List<Predicate>> onField = new LinkedHashMap<>();
                boolean all = true;
                for (Expression operand : and.operands()) {
                    if (operand instanceof Predicate predicate) {
                        onField.computeIfAbsent(identity(predicate.field()), f -> new ArrayList<>()).add(predicate);
                    } else {
                        all = all && matches(operand, key, item);
                    }
                }
                for (Map.Entry<String, List<Predicate>> field : onField.entrySet()) {
                    all = all && fieldMatches(values(field.getKey(), key, item), field.getValue());
                }
                yield all;
            }
            case Expression.Or or -> or.operands().stream().anyMatch(operand -> matches(operand, key, item));
            case Expression.Not not -> !matches(not.operand(), key, item);
        };
    }

    /**
     * Whether the attributes an index item carries (its projection) decide the other fields' predicates, and how: empty
     * when some predicate needs the whole item.
     */
    Optional<Boolean> othersMatchOnProjection(Map<String, AttributeValue> indexItem) {
        if (!residual.isEmpty()) {
            return Optional.empty();
        }
        AttributeValue attrs = indexItem.get(IndexItem.ATTRS);
        boolean decided = true;
        for (Map.Entry<String, List<Predicate>> field : byField.entrySet()) {
            String name = field.getKey();
            if (isSortField(name)) {
                continue;
            }
            if (isEntry(name)) {
                return Optional.empty();
            }
            AttributePath path = attributePath(name);
            if (!index.projection().contains(path)) {
                return Optional.empty();
            }
            AttributeValue value = attrs == null || attrs.m() == null ? null : attrs.m().get(path.toString());
            if (!fieldMatches(valuesOf(value), field.getValue())) {
                decided = false;
            }
        }
        return Optional.of(decided);
    }

    /** The values an item holds in a field (in any spelling). */
    List<IndexValue> values(String spelled, ItemKey key, Map<String, AttributeValue> item) {
        String field = identity(spelled);
        if (isEntry(field) || isSortField(field)) {
            String entry = entries() ? field : null;
            String partition = project.isPresent() ? entry : IndexProjector.partition(index, group, entry);
            List<IndexValue> values = new ArrayList<>();
            for (IndexItem indexItem : projector.projectEntry(index.name(), key, item, entries() ? field : "").items()) {
                if (indexItem.attribId().equals(partition) && project.map(p -> p.equals(indexItem.toItem().get(IndexItem.PROJECT).s()))
                        .orElse(true)) {
                    values.add(indexItem.value());
                }
            }
            return values;
        }
        return valuesOf(attributePath(field).resolve(item));
    }

    private static List<IndexValue> valuesOf(AttributeValue value) {
        if (value == null) {
            return List.of();
        }
        try {
            return FieldValues.of(value);
        } catch (UnindexableValueException e) {
            return List.of();
        }
    }

    /** An item matches a field's predicates when one of its values satisfies them all; {@code missing} when it has none. */
    static boolean fieldMatches(List<IndexValue> values, List<Predicate> predicates) {
        if (predicates.stream().anyMatch(p -> p instanceof Predicate.Missing)) {
            return values.isEmpty() && predicates.stream().allMatch(p -> p instanceof Predicate.Missing);
        }
        for (IndexValue value : values) {
            boolean all = true;
            for (Predicate predicate : predicates) {
                if (!predicate.test(value)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
        }
        return false;
    }
}
