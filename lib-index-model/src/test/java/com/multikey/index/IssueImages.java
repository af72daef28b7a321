package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** Issue images for tests. */
public final class IssueImages {

    private IssueImages() {
    }

    public static Map<String, AttributeValue> issue(String id, String project, int num, Map<String, AttributeValue> fields) {
        Map<String, AttributeValue> image = new LinkedHashMap<>();
        image.put("id", AttributeValue.fromS(id));
        image.put("project", AttributeValue.fromS(project));
        image.put("num", AttributeValue.fromN(Integer.toString(num)));
        image.put("name", AttributeValue.fromS("an issue"));
        image.put("state", AttributeValue.fromS("open"));
        if (fields != null) {
            image.put("custom_fields", AttributeValue.fromM(fields));
        }
        return image;
    }

    public static Map<String, AttributeValue> with(Map<String, AttributeValue> image, String attribute, AttributeValue value) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(image);
        copy.put(attribute, value);
        return copy;
    }

    public static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    public static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }
}
