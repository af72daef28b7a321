package com.multikey.local;

import com.multikey.clikit.Failure;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A table of the user's own shape for the local stack ({@code start --definitions FILE}): created before the stack, with
 * the key schema the definitions declare and a stream of both images, then given to the template as
 * {@code ExistingTableName} — the path a deployment on an existing table takes — with every function reading the
 * definitions file.
 *
 * @param name        the table's name
 * @param definitions the definitions, checked
 * @param json        the definitions as the JSON file the functions read ({@code INDEX_DEFINITIONS})
 */
record OwnTable(String name, IndexDefinitions definitions, Path json) {

    static OwnTable of(Path definitionsFile, String name) {
        if (!Files.isRegularFile(definitionsFile)) {
            throw Failure.usage("no definitions file at " + definitionsFile + ": pass --definitions with the path of an index definitions file"
                    + " (operator-cli.jar init --table NAME proposes one)");
        }
        IndexDefinitions definitions = DefinitionsYaml.read(definitionsFile);
        try {
            // deleted when the command ends (LocalMain#deletedAtTheEnd), or the JVM
            Path json = Files.createTempFile("multikey-definitions-", ".json");
            json.toFile().deleteOnExit();
            Files.writeString(json, DefinitionsYaml.toJson(definitionsFile));
            return new OwnTable(name, definitions, json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The template's parameters for a table that exists before the stack: its stream read whole, any key for redrive. */
    Map<String, String> parameters() {
        return Map.of("ExistingTableName", name, "ExistingTableStreamArn",
                "arn:aws:dynamodb:us-east-1:123456789012:table/" + name + "/stream/2026-01-01T00:00:00.000",
                "StreamIndexerFilterPattern", "", "IndexedItemKeyPatterns", "*");
    }

    /** What every function reads instead of its packaged definitions. */
    Map<String, String> environment() {
        return Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, json.toString());
    }

    /** Creates the table as its owner has it: the declared key, on demand, a stream of both images. */
    Consumer<DynamoDbClient> creation() {
        return dynamoDb -> {
            List<AttributeDefinition> attributes = new ArrayList<>();
            List<KeySchemaElement> key = new ArrayList<>();
            KeySchema schema = definitions.table();
            for (KeySchema.KeyAttribute attribute : schema.attributes()) {
                attributes.add(AttributeDefinition.builder().attributeName(attribute.name()).attributeType(attribute.type().name()).build());
                key.add(KeySchemaElement.builder().attributeName(attribute.name())
                        .keyType(attribute == schema.partitionKey() ? KeyType.HASH : KeyType.RANGE).build());
            }
            dynamoDb.createTable(b -> b.tableName(name).billingMode("PAY_PER_REQUEST").attributeDefinitions(attributes).keySchema(key)
                    .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        };
    }
}
