package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * DynamoDB's expression language: parses condition and filter expressions, update expressions, projection
 * expressions and key condition expressions against a request's ExpressionAttributeNames and
 * ExpressionAttributeValues. Every syntax or semantic error is a ValidationException with DynamoDB's message
 * (e.g. "Invalid ConditionExpression: Syntax error; token: ..."); the caller checks that every given name
 * and value was used by some expression of the request (see {@link Parsed}).
 */
public final class Expressions {

    /** A placeholder as the expressions' tokenizer reads one: '#' or ':' then letters, digits, underscores. */
    private static final Pattern NAME_KEY = Pattern.compile("#[A-Za-z0-9_]+");
    private static final Pattern VALUE_KEY = Pattern.compile(":[A-Za-z0-9_]+");

    private Expressions() {
    }

    /**
     * Refuses an ExpressionAttributeNames key no expression could use, as DynamoDB does before parsing any
     * expression: "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"".
     */
    public static void checkAttributeNameKeys(Collection<String> keys) {
        checkKeys("ExpressionAttributeNames", NAME_KEY, keys);
    }

    /** The same for ExpressionAttributeValues' keys, which start with ':'. */
    public static void checkAttributeValueKeys(Collection<String> keys) {
        checkKeys("ExpressionAttributeValues", VALUE_KEY, keys);
    }

    private static void checkKeys(String member, Pattern syntax, Collection<String> keys) {
        for (String key : keys) {
            if (!syntax.matcher(key).matches()) {
                throw EngineException.validation(
                        member + " contains invalid key: Syntax error; key: \"" + key + "\"");
            }
        }
    }

    /** A ConditionExpression or FilterExpression; {@code kind} names it in messages ("ConditionExpression"). */
    public static ConditionExpression condition(String kind, String text, Map<String, String> names, Map<String, Value> values) {
        Source source = new Source(kind, text, names, values);
        Condition condition = new ConditionParser(source).condition();
        source.expectEnd();
        return new ParsedCondition(condition, source.usedNames(), source.usedValues(), source.nestedAccessNames(),
                source.topLevelNames());
    }

    public static UpdateExpression update(String text, Map<String, String> names, Map<String, Value> values) {
        Source source = new Source("UpdateExpression", text, names, values);
        List<UpdateAction> actions = new UpdateParser(source).parse();
        return new ParsedUpdate(actions, source.usedNames(), source.usedValues(), source.nestedAccessNames(),
                source.topLevelNames());
    }

    public static ProjectionExpression projection(String text, Map<String, String> names) {
        Source source = new Source("ProjectionExpression", text, names, Map.of());
        OperandParser parser = new OperandParser(source, false);
        List<Path> paths = new ArrayList<>();
        do {
            paths.add(parser.path());
        } while (source.accept(Token.Kind.COMMA));
        source.expectEnd();
        Overlaps.check(source, paths);
        return new ParsedProjection(paths, source.usedNames(), source.usedValues(), source.nestedAccessNames(),
                source.topLevelNames());
    }

    /**
     * Checks a KeyConditionExpression as DynamoDB does before it looks up the table: its syntax, its values, and
     * its shape without the key schema ({@code KeyConditions.checkShape}).
     */
    public static void checkKeyCondition(String text, Map<String, String> names, Map<String, Value> values) {
        Source source = new Source("KeyConditionExpression", text, names, values);
        Condition condition = new ConditionParser(source).condition();
        source.expectEnd();
        KeyConditions.checkShape(source, condition);
    }

    /**
     * A KeyConditionExpression for a table or index with these key attribute names ({@code sortKey} null when
     * there is none): equality on the partition key, and optionally one of =, <, <=, >, >=, BETWEEN,
     * begins_with on the sort key.
     */
    public static KeyCondition keyCondition(String text, Map<String, String> names, Map<String, Value> values,
                                            String partitionKey, String sortKey) {
        Source source = new Source("KeyConditionExpression", text, names, values);
        Condition condition = new ConditionParser(source).condition();
        source.expectEnd();
        return KeyConditions.read(source, condition, partitionKey, sortKey);
    }
}
