package com.multikey.testkit;

import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * The embedded DynamoDB engine holding the tables {@code template.yaml} declares, as {@link LocalTablesExtension}
 * gives it to a test class.
 */
public final class LocalTables implements AutoCloseable {

    private final LocalDynamoDb local;
    private final DynamoDbClient dynamoDb;
    private final SamTemplate template;
    private Map<String, String> names;

    private LocalTables(LocalDynamoDb local, SamTemplate template) {
        this.local = local;
        this.dynamoDb = local.client();
        this.template = template;
        this.names = TemplateTables.create(template, dynamoDb);
    }

    /** Starts the DynamoDB engine on a free port and creates the repository template's tables. */
    public static LocalTables start() {
        return new LocalTables(LocalDynamoDb.start(), SamTemplate.ofRepository());
    }

    /**
     * {@link #start()} with standard output silenced while the engine starts (for a test class that starts its own,
     * e.g. a jqwik container, whose report the engine's start lines would otherwise interleave).
     */
    public static LocalTables startQuietly() {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            return start();
        } finally {
            System.setOut(console);
        }
    }

    /** Drops every table, the template's and any a test made, and creates the template's tables anew. */
    public void reset() {
        dynamoDb.listTables().tableNames().forEach(name -> dynamoDb.deleteTable(b -> b.tableName(name)));
        names = TemplateTables.create(template, dynamoDb);
    }

    public LocalDynamoDb local() {
        return local;
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    public SamTemplate template() {
        return template;
    }

    /** Table name by the table's logical id in the template. */
    public Map<String, String> names() {
        return names;
    }

    /** The name of the table with this logical id. */
    public String name(String logicalId) {
        String name = names.get(logicalId);
        if (name == null) {
            throw new IllegalArgumentException("the template declares no table " + logicalId + "; it declares " + names.keySet());
        }
        return name;
    }

    @Override
    public void close() {
        dynamoDb.close();
        local.close();
    }
}
