package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Projects an issue image onto the index: one item per (custom field, distinct value); a list or a
 * string/number set gives one item per distinct element.
 *
 * <p>The index of an issue is a function of its latest image alone, so what cannot be indexed is left
 * out the same way every time: a field holding an unsupported type (a map, binary, a nested list) gets no
 * items and a rejection, and so does a field whose id cannot be a partition key (empty, or over 2,048
 * bytes) or whose index item would exceed DynamoDB's item size even without the value's copy; an image
 * without a string {@code project} or a number {@code num}, with an id longer than a sort key can hold,
 * or whose {@code custom_fields} is not a map, gets no items at all. {@code NULL} values and empty lists
 * or sets simply have no items. A value too large to be copied into its index item is indexed without
 * the copy (see {@link IndexItem}).
 */
public final class IssueProjector {

    private final IssueSchema schema;

    public IssueProjector(IssueSchema schema) {
        this.schema = schema;
    }

    /**
     * The projections of two versions of one issue, restricted to what can differ between them: when
     * project and num are the same, custom fields with equal values give equal items and are left out
     * of both, so a one-field change costs one field's work however many fields the issue has.
     */
    public ChangedProjections changed(String issueId, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        if (before == null || after == null || !sameKeyParts(before, after)) {
            return new ChangedProjections(projectOrEmpty(issueId, before), projectOrEmpty(issueId, after));
        }
        Map<String, AttributeValue> oldFields = before.get(schema.customFieldsAttribute()).m();
        Map<String, AttributeValue> newFields = after.get(schema.customFieldsAttribute()).m();
        Map<String, AttributeValue> oldChanged = new LinkedHashMap<>();
        Map<String, AttributeValue> newChanged = new LinkedHashMap<>();
        oldFields.forEach((field, value) -> {
            if (!value.equals(newFields.get(field))) {
                oldChanged.put(field, value);
            }
        });
        newFields.forEach((field, value) -> {
            if (!value.equals(oldFields.get(field))) {
                newChanged.put(field, value);
            }
        });
        return new ChangedProjections(project(issueId, withFields(before, oldChanged)), project(issueId, withFields(after, newChanged)));
    }

    /**
     * The projections of an issue's old and new image, restricted to what can differ between them: the
     * index writes of a change are {@code IndexDiff.between(before.items(), after.items())}.
     */
    public record ChangedProjections(IssueProjection before, IssueProjection after) {
    }

    private IssueProjection projectOrEmpty(String issueId, Map<String, AttributeValue> image) {
        return image == null ? IssueProjection.EMPTY : project(issueId, image);
    }

    /** Both images index fields (custom fields are maps) under the same project and num. */
    private boolean sameKeyParts(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        AttributeValue oldFields = before.get(schema.customFieldsAttribute());
        AttributeValue newFields = after.get(schema.customFieldsAttribute());
        return oldFields != null && newFields != null && oldFields.type() == AttributeValue.Type.M
                && newFields.type() == AttributeValue.Type.M
                && Objects.equals(before.get(schema.projectAttribute()), after.get(schema.projectAttribute()))
                && Objects.equals(before.get(schema.numAttribute()), after.get(schema.numAttribute()));
    }

    private Map<String, AttributeValue> withFields(Map<String, AttributeValue> image, Map<String, AttributeValue> fields) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(image);
        copy.put(schema.customFieldsAttribute(), AttributeValue.fromM(fields));
        return copy;
    }

    public IssueProjection project(String issueId, Map<String, AttributeValue> image) {
        AttributeValue fields = image.get(schema.customFieldsAttribute());
        if (fields == null || fields.type() == AttributeValue.Type.NUL) {
            return IssueProjection.EMPTY;
        }
        if (fields.type() != AttributeValue.Type.M) {
            return rejected(issueId, schema.customFieldsAttribute() + " is of type " + fields.type() + ", not a map");
        }
        if (!fields.hasM() || fields.m().isEmpty()) {
            return IssueProjection.EMPTY;
        }
        if (DynamoDbLimits.utf8Bytes(issueId) > SortKeyCodec.MAX_ISSUE_ID_BYTES) {
            return rejected(issueId, "issue id longer than " + SortKeyCodec.MAX_ISSUE_ID_BYTES
                    + " bytes, the part of a sort key it may take");
        }
        AttributeValue project = image.get(schema.projectAttribute());
        if (project == null || project.s() == null) {
            return rejected(issueId, schema.projectAttribute() + " is missing or not a string");
        }
        AttributeValue num = image.get(schema.numAttribute());
        if (num == null || num.n() == null) {
            return rejected(issueId, schema.numAttribute() + " is missing or not a number");
        }
        BigDecimal issueNum;
        try {
            issueNum = new BigDecimal(num.n());
            SortKeyCodec.encodeNumber(issueNum);
        } catch (NumberFormatException | UnindexableValueException e) {
            return rejected(issueId, schema.numAttribute() + " is not a valid DynamoDB number");
        }

        Map<IndexKey, IndexItem> items = new LinkedHashMap<>();
        List<Rejection> rejections = new ArrayList<>();
        for (Map.Entry<String, AttributeValue> field : fields.m().entrySet()) {
            String attribId = field.getKey();
            try {
                for (IndexValue value : values(field.getValue())) {
                    IndexItem item = IndexItem.of(attribId, value, issueId, project.s(), issueNum);
                    items.put(item.key(), item);
                }
            } catch (UnindexableValueException e) {
                items.keySet().removeIf(key -> key.attribId().equals(attribId));
                rejections.add(new Rejection.Field(issueId, attribId, e.getMessage()));
            }
        }
        return new IssueProjection(Set.copyOf(items.values()), rejections);
    }

    private static IssueProjection rejected(String issueId, String reason) {
        return new IssueProjection(Set.of(), List.of(new Rejection.Image(issueId, reason)));
    }

    /** The values a field's attribute holds: none, one, or one per element of a list or set. */
    static List<IndexValue> values(AttributeValue attribute) {
        return switch (attribute.type()) {
            case S, N, BOOL -> List.of(scalar(attribute));
            case NUL -> List.of();
            case SS -> attribute.ss().stream().<IndexValue>map(IndexValue.Text::new).toList();
            case NS -> attribute.ns().stream().map(IssueProjector::number).toList();
            case L -> {
                List<IndexValue> values = new ArrayList<>();
                for (AttributeValue element : attribute.l()) {
                    switch (element.type()) {
                        case S, N, BOOL -> values.add(scalar(element));
                        case NUL -> { }
                        default -> throw new UnindexableValueException(
                                "list element of unsupported type " + element.type());
                    }
                }
                yield values;
            }
            default -> throw new UnindexableValueException("value of unsupported type " + attribute.type());
        };
    }

    private static IndexValue scalar(AttributeValue attribute) {
        return switch (attribute.type()) {
            case S -> new IndexValue.Text(attribute.s());
            case N -> number(attribute.n());
            case BOOL -> new IndexValue.Bool(attribute.bool());
            default -> throw new IllegalArgumentException("not a scalar: " + attribute.type());
        };
    }

    private static IndexValue number(String text) {
        try {
            IndexValue.Num number = IndexValue.Num.parse(text);
            SortKeyCodec.encodeNumber(number.value());
            return number;
        } catch (NumberFormatException e) {
            throw new UnindexableValueException("number that does not parse");
        }
    }
}
