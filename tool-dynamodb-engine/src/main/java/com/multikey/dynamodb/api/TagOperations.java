package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.table.Table;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * TagResource, UntagResource and ListTagsOfResource on a table's ARN (API reference; a Tag's key is 1 to 128
 * characters, its value 0 to 256). The ARN is checked first: none is a ValidationException, one that is no ARN at all
 * an AccessDeniedException (the caller may not act on such a resource), one that is not a table's a
 * ValidationException; then the tags; then the table is looked up. Tags apply at once (DynamoDB applies them
 * eventually) and go with their table.
 */
public final class TagOperations {

    private static final Pattern ANY_ARN = Pattern.compile("^.+:.+:.+:.+:.+:.+/.+$");
    private static final Pattern TABLE_ARN = Pattern.compile("^arn:aws:dynamodb:.+:\\d+:table/[^/]{2}[^/]+$");
    private static final int MAX_KEY_LENGTH = 128;
    private static final int MAX_VALUE_LENGTH = 256;

    private final Catalog catalog;

    public TagOperations(Catalog catalog) {
        this.catalog = catalog;
    }

    public ObjectNode tagResource(Request request) {
        String arn = arn(request, "TagResource");
        if (!request.has("Tags")) {
            throw Request.constraint("null", "tags", "Member must not be null");
        }
        checkTableArn(arn);
        List<Request> given = request.structures("Tags");
        if (given.isEmpty()) {
            throw EngineException.validation("Atleast one Tag needs to be provided as Input.");
        }
        Map<String, String> tags = new LinkedHashMap<>();
        for (Request tag : given) {
            String key = tag.requiredString("Key");
            String value = tag.requiredString("Value");
            if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
                throw Request.constraint("'" + key + "'", tag.at("Key"), key.isEmpty()
                        ? "Member must have length greater than or equal to 1" : "Member must have length less than or equal to " + MAX_KEY_LENGTH);
            }
            if (value.length() > MAX_VALUE_LENGTH) {
                throw Request.constraint("'" + value + "'", tag.at("Value"), "Member must have length less than or equal to " + MAX_VALUE_LENGTH);
            }
            tags.put(key, value);
        }
        Table table = table(arn, "Requested resource not found: ResourcArn: " + arn + " not found");
        Locks.under(table, () -> {
            table.tags().putAll(tags);
            return null;
        });
        return Json.object();
    }

    public ObjectNode untagResource(Request request) {
        String arn = arn(request, "UntagResource");
        if (!request.has("TagKeys")) {
            throw Request.constraint("null", "tagKeys", "Member must not be null");
        }
        checkTableArn(arn);
        List<String> keys = request.strings("TagKeys");
        if (keys.isEmpty()) {
            throw EngineException.validation("Atleast one Tag Key needs to be provided as Input.");
        }
        Table table = table(arn, "Requested resource not found");
        Locks.under(table, () -> {
            keys.forEach(table.tags()::remove);
            return null;
        });
        return Json.object();
    }

    public ObjectNode listTagsOfResource(Request request) {
        String arn = arn(request, "ListTagsOfResource");
        checkTableArn(arn);
        Table table = table(arn, "Requested resource not found: ResourcArn: " + arn + " not found");
        ObjectNode response = Json.object();
        ArrayNode list = response.putArray("Tags");
        Locks.under(table, () -> {
            table.tags().forEach((key, value) -> list.addObject().put("Key", key).put("Value", value));
            return null;
        });
        return response;
    }

    private String arn(Request request, String operation) {
        String arn = request.string("ResourceArn").orElseThrow(() -> EngineException.validation("Invalid TableArn"));
        if (!ANY_ARN.matcher(arn).matches()) {
            throw new EngineException("AccessDeniedException", 400, "User: arn:aws:iam::" + catalog.account()
                    + ":root is not authorized to perform: dynamodb:" + operation + " on resource: " + (arn.isEmpty() ? "*" : arn));
        }
        return arn;
    }

    private static void checkTableArn(String arn) {
        if (!TABLE_ARN.matcher(arn).matches()) {
            throw EngineException.validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
        }
    }

    private Table table(String arn, String notFound) {
        Table table = catalog.find(arn);
        if (table == null) {
            throw EngineException.resourceNotFound(notFound);
        }
        return table;
    }
}
