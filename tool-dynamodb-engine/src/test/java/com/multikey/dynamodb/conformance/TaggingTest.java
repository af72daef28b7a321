package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Tag;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * TagResource, UntagResource and ListTagsOfResource on a table's ARN, written from the API reference: a tag's value
 * replaced by a later one of the same key, removed by its key, the tags given to CreateTable listed too; the ARN
 * checked before the tags and the tags before the table is looked up.
 */
class TaggingTest extends EngineTestSupport {

    private static Tag tag(String key, String value) {
        return Tag.builder().key(key).value(value).build();
    }

    private String arn(String table) {
        return dynamoDb.describeTable(b -> b.tableName(table)).table().tableArn();
    }

    @Test
    void tags_addedReplacedAndRemoved() {
        String table = hashTable();
        String arn = arn(table);
        assertThat(dynamoDb.listTagsOfResource(b -> b.resourceArn(arn)).tags()).isEmpty();

        dynamoDb.tagResource(b -> b.resourceArn(arn).tags(tag("team", "search"), tag("env", "test")));
        dynamoDb.tagResource(b -> b.resourceArn(arn).tags(tag("env", "prod"), tag("empty", "")));

        assertThat(dynamoDb.listTagsOfResource(b -> b.resourceArn(arn)).tags())
                .containsExactly(tag("team", "search"), tag("env", "prod"), tag("empty", ""));

        dynamoDb.untagResource(b -> b.resourceArn(arn).tagKeys("team", "absent"));

        assertThat(dynamoDb.listTagsOfResource(b -> b.resourceArn(arn)).tags()).containsExactly(tag("env", "prod"), tag("empty", ""));
    }

    @Test
    void createTable_tags_areListed() {
        String table = uniqueName("tagged");
        dynamoDb.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("id", ScalarAttributeType.S)).keySchema(key("id", KeyType.HASH))
                .tags(tag("owner", "me")));

        assertThat(dynamoDb.listTagsOfResource(b -> b.resourceArn(arn(table))).tags()).containsExactly(tag("owner", "me"));
    }

    /** The service framework's AccessDeniedException, as DynamoDB sends it: its message under "Message". */
    @Test
    void accessDenied_onTheWire() {
        String body = engine.handle("DynamoDB_20120810.UntagResource",
                "{\"ResourceArn\":\"a:b:c:d:e/f\",\"TagKeys\":[\"k\"]}".getBytes(StandardCharsets.UTF_8)).bodyText();

        assertThat(body).isEqualTo("{\"__type\":\"com.amazon.coral.service#AccessDeniedException\",\"Message\":"
                + "\"User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:UntagResource on resource: a:b:c:d:e/f\"}");
    }

    @Test
    void tagging_refused() {
        String missing = "arn:aws:dynamodb:us-east-1:000000000000:table/no-such-table";
        expect(() -> dynamoDb.listTagsOfResource(b -> b.resourceArn("abcd")), DynamoDbException.class,
                "is not authorized to perform: dynamodb:ListTagsOfResource on resource: abcd");
        expectValidation(() -> dynamoDb.tagResource(b -> b.resourceArn("a:b:c:d:e:f/g").tags(tag("k", "v"))),
                "Invalid TableArn: Invalid ResourceArn provided as input a:b:c:d:e:f/g");
        expectValidation(() -> dynamoDb.tagResource(b -> b.resourceArn(missing).tags(List.of())),
                "Atleast one Tag needs to be provided as Input.");
        expectValidation(() -> dynamoDb.untagResource(b -> b.resourceArn(missing).tagKeys(List.of())),
                "Atleast one Tag Key needs to be provided as Input.");
        expect(() -> dynamoDb.tagResource(b -> b.resourceArn(missing).tags(tag("k".repeat(129), "v"))), DynamoDbException.class,
                "Member must have length less than or equal to 128");
        expect(() -> dynamoDb.tagResource(b -> b.resourceArn(missing).tags(tag("k", "v"))), ResourceNotFoundException.class,
                "Requested resource not found");
        expect(() -> dynamoDb.listTagsOfResource(b -> b.resourceArn(missing)), ResourceNotFoundException.class,
                "Requested resource not found");
    }
}
