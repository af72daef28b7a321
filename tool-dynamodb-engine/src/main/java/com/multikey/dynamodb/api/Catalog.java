package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.kinesis.KinesisSink;
import com.multikey.dynamodb.stream.SequenceNumbers;
import com.multikey.dynamodb.stream.StreamRegistry;
import com.multikey.dynamodb.table.Table;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The engine's state: its tables (one shared account, whatever the caller's credentials and region, as
 * DynamoDB Local's {@code -sharedDb}), its streams, its clock and the region and account its ARNs name.
 */
public final class Catalog {

    private final NavigableMap<String, Table> tables = new ConcurrentSkipListMap<>();
    private final StreamRegistry streams = new StreamRegistry();
    private final SequenceNumbers sequences = new SequenceNumbers();
    private final Clock clock;
    private final String region;
    private final String account;
    private volatile KinesisSink kinesisSink = KinesisSink.NONE;

    public Catalog(Clock clock, String region, String account) {
        this.clock = clock;
        this.region = region;
        this.account = account;
    }

    public Instant now() {
        return clock.instant();
    }

    public String region() {
        return region;
    }

    public String account() {
        return account;
    }

    /** Where the tables' Kinesis streaming destinations put their records. */
    public KinesisSink kinesisSink() {
        return kinesisSink;
    }

    public void kinesisSink(KinesisSink sink) {
        this.kinesisSink = sink;
    }

    public StreamRegistry streams() {
        return streams;
    }

    public SequenceNumbers sequences() {
        return sequences;
    }

    /** A table by name or ARN; ResourceNotFoundException as the item operations word it. */
    public Table table(String nameOrArn) {
        Table table = tables.get(nameOf(nameOrArn));
        if (table == null) {
            throw EngineException.resourceNotFound("Requested resource not found");
        }
        return table;
    }

    public Table find(String nameOrArn) {
        return tables.get(nameOf(nameOrArn));
    }

    public Collection<Table> tables() {
        return tables.values();
    }

    public NavigableMap<String, Table> tablesByName() {
        return tables;
    }

    /** Adds the table unless one of its name exists; returns whether it was added. */
    public boolean add(Table table) {
        return tables.putIfAbsent(table.name(), table) == null;
    }

    public void remove(String name) {
        tables.remove(name);
    }

    public String tableArn(String name) {
        return "arn:aws:dynamodb:" + region + ":" + account + ":table/" + name;
    }

    private static String nameOf(String nameOrArn) {
        int slash = nameOrArn.indexOf(":table/");
        if (nameOrArn.startsWith("arn:") && slash >= 0) {
            String rest = nameOrArn.substring(slash + ":table/".length());
            int next = rest.indexOf('/');
            return next < 0 ? rest : rest.substring(0, next);
        }
        return nameOrArn;
    }
}
