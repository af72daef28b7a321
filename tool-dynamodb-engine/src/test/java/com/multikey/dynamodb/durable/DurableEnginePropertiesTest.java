package com.multikey.dynamodb.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.dynamodb.EngineResponse;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.statistics.Statistics;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A data directory keeps what was acknowledged: random changes (table creations and deletions, puts, deletes, updates,
 * conditional puts, batches, transactions, TTL settings and TTL sweeps) with restarts among them, then a kill at a
 * random byte of the log, leave the tables equal to a model of DynamoDB's documented behaviour applied to every change
 * whose record was whole at the kill. The log is compacted at random thresholds (and at some restarts): what the kill
 * keeps is then the snapshot and the whole records of the log after it.
 */
class DurableEnginePropertiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DYNAMODB = "DynamoDB_20120810.";
    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    sealed interface Op {
    }

    record Create(String table) implements Op {
    }

    record Drop(String table) implements Op {
    }

    /** A put; {@code expiresIn} seconds from the test clock's start when not null (the TTL attribute {@code exp}). */
    record Put(String table, String id, long value, Long expiresIn) implements Op {
    }

    record PutIfAbsent(String table, String id, long value) implements Op {
    }

    record Delete(String table, String id) implements Op {
    }

    record Add(String table, String id, long by) implements Op {
    }

    record Batch(String table, List<String> ids, long value) implements Op {
    }

    /** A transaction that puts one item in table alpha and one in table bravo. */
    record Transact(String idA, String idB, long value) implements Op {
    }

    record Ttl(String table, boolean enabled) implements Op {
    }

    /** Moves the clock on and runs a TTL sweep. */
    record Sweep(long seconds) implements Op {
    }

    record Restart() implements Op {
    }

    /** A table of the model: items by id (their v and optional exp), and whether TTL is enabled. */
    record TableModel(Map<String, long[]> items, boolean ttl) {
        TableModel copy() {
            Map<String, long[]> copy = new TreeMap<>();
            items.forEach((k, v) -> copy.put(k, v.clone()));
            return new TableModel(copy, ttl);
        }
    }

    @Property(tries = 60)
    void restartsThenAKill_leaveEveryWholeChange(@ForAll("operations") List<Op> ops,
                                                  @ForAll @DoubleRange(min = 0, max = 1) double cut,
                                                  @ForAll("compactions") DurableEngine.Compaction compaction) throws IOException {
        Path dir = Files.createTempDirectory("engine-data");
        try {
            TestClock clock = new TestClock(START);
            Map<String, TableModel> model = new TreeMap<>();
            // the model's state at each log size: after a kill at byte b, the last state logged within b bytes
            List<Long> offsets = new ArrayList<>(List.of(0L));
            List<Map<String, TableModel>> states = new ArrayList<>(List.of(copy(model)));
            DurableEngine engine = DurableEngine.open(dir, clock, "us-east-1", compaction);
            long generation = engine.generation();
            for (Op op : ops) {
                if (op instanceof Restart) {
                    engine.close();
                    engine = DurableEngine.open(dir, clock, "us-east-1", compaction);
                    assertThat(engine.startup().torn()).isFalse();
                    assertThat(state(engine)).isEqualTo(render(model));
                } else {
                    boolean expected = apply(op, model, clock);
                    boolean answered = run(engine, op, clock);
                    assertThat(answered).as("%s answered as the model expects", op).isEqualTo(expected);
                }
                if (engine.generation() != generation) {
                    // compacted: the snapshot holds the model as it is now, and the new log starts after it
                    generation = engine.generation();
                    offsets = new ArrayList<>(List.of(engine.logSize()));
                    states = new ArrayList<>(List.of(copy(model)));
                } else if (offsets.get(offsets.size() - 1) != engine.logSize()) {
                    offsets.add(engine.logSize());
                    states.add(copy(model));
                }
            }
            long size = engine.logSize();
            Statistics.label("compactions").collect(generation == 0 ? "none" : generation == 1 ? "one" : "several");
            engine.halt();

            // when: the process dies at a random byte of its log
            long at = Math.round(cut * size);
            Statistics.label("restarts").collect(ops.stream().filter(Restart.class::isInstance).count() > 0 ? "some" : "none");
            try (RandomAccessFile file = new RandomAccessFile(dir.resolve(DurableEngine.LOG_FILE).toFile(), "rw")) {
                file.setLength(at);
            }
            int whole = 0;
            while (whole + 1 < offsets.size() && offsets.get(whole + 1) <= at) {
                whole++;
            }

            // then: a restart holds every change whose record is whole, and nothing else
            try (DurableEngine restarted = DurableEngine.open(dir, clock, "us-east-1", compaction)) {
                assertThat(state(restarted)).isEqualTo(render(states.get(whole)));
                boolean onBoundary = offsets.contains(at) || at <= WriteAheadLog.MAGIC.length;
                assertThat(restarted.startup().torn()).isEqualTo(!onBoundary);
                // and the log takes new changes after what it kept
                Map<String, TableModel> after = copy(states.get(whole));
                Op more = new Create("charlie");
                assertThat(run(restarted, more, clock)).isEqualTo(apply(more, after, clock));
                restarted.close();
                try (DurableEngine again = DurableEngine.open(dir, clock, "us-east-1", compaction)) {
                    assertThat(again.startup().torn()).isFalse();
                    assertThat(state(again)).isEqualTo(render(after));
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Mostly thresholds small enough to compact several times a run; sometimes never (the log alone). */
    @Provide
    Arbitrary<DurableEngine.Compaction> compactions() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(DurableEngine.Compaction.NEVER)),
                net.jqwik.api.Tuple.of(4, Combinators.combine(Arbitraries.longs().between(1, 4000), Arbitraries.of(true, false))
                        .as(DurableEngine.Compaction::new)));
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<String> tables = Arbitraries.of("alpha", "bravo");
        Arbitrary<String> ids = Arbitraries.of("1", "2", "3", "4");
        Arbitrary<Long> values = Arbitraries.longs().between(-5, 5);
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, tables.map(Create::new)),
                net.jqwik.api.Tuple.of(1, tables.map(Drop::new)),
                net.jqwik.api.Tuple.of(8, Combinators.combine(tables, ids, values,
                        Arbitraries.longs().between(-5, 60).injectNull(0.3)).as(Put::new)),
                net.jqwik.api.Tuple.of(3, Combinators.combine(tables, ids, values).as(PutIfAbsent::new)),
                net.jqwik.api.Tuple.of(3, Combinators.combine(tables, ids).as(Delete::new)),
                net.jqwik.api.Tuple.of(3, Combinators.combine(tables, ids, values).as(Add::new)),
                net.jqwik.api.Tuple.of(2, Combinators.combine(tables, ids.set().ofMinSize(1).ofMaxSize(3).map(List::copyOf), values).as(Batch::new)),
                net.jqwik.api.Tuple.of(2, Combinators.combine(ids, ids, values).as(Transact::new)),
                net.jqwik.api.Tuple.of(3, Combinators.combine(tables, Arbitraries.of(true, true, false)).as(Ttl::new)),
                net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(1, 60).map(Sweep::new)),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(new Restart())));
        // most runs start with both tables, so that the changes after them find one
        Arbitrary<List<Op>> start = Arbitraries.of(List.<Op>of(), List.<Op>of(new Create("alpha"), new Create("bravo")),
                List.<Op>of(new Create("alpha"), new Create("bravo"), new Ttl("alpha", true)));
        return Combinators.combine(start, op.list().ofMinSize(5).ofMaxSize(60)).as((first, rest) -> {
            List<Op> all = new ArrayList<>(first);
            all.addAll(rest);
            return all;
        });
    }

    /** DynamoDB's documented answer, applied to the model: whether the change is accepted. */
    private static boolean apply(Op op, Map<String, TableModel> model, TestClock clock) {
        return switch (op) {
            case Create c -> model.putIfAbsent(c.table(), new TableModel(new TreeMap<>(), false)) == null;
            case Drop d -> model.remove(d.table()) != null;
            case Put p -> {
                TableModel table = model.get(p.table());
                if (table != null) {
                    table.items().put(p.id(), p.expiresIn() == null ? new long[] {p.value()}
                            : new long[] {p.value(), START.getEpochSecond() + p.expiresIn()});
                }
                yield table != null;
            }
            case PutIfAbsent p -> {
                TableModel table = model.get(p.table());
                yield table != null && table.items().putIfAbsent(p.id(), new long[] {p.value()}) == null;
            }
            case Delete d -> {
                TableModel table = model.get(d.table());
                if (table != null) {
                    table.items().remove(d.id());
                }
                yield table != null;
            }
            case Add a -> {
                TableModel table = model.get(a.table());
                if (table != null) {
                    long[] item = table.items().computeIfAbsent(a.id(), k -> new long[] {0});
                    item[0] += a.by();
                }
                yield table != null;
            }
            case Batch b -> {
                TableModel table = model.get(b.table());
                if (table != null) {
                    b.ids().forEach(id -> table.items().put(id, new long[] {b.value()}));
                }
                yield table != null;
            }
            case Transact t -> {
                TableModel a = model.get("alpha");
                TableModel b = model.get("bravo");
                if (a != null && b != null) {
                    a.items().put(t.idA(), new long[] {t.value()});
                    b.items().put(t.idB(), new long[] {t.value()});
                }
                yield a != null && b != null;
            }
            case Ttl t -> {
                TableModel table = model.get(t.table());
                if (table == null || table.ttl() == t.enabled()) {
                    yield false; // no table, or TTL "is already enabled" / "already disabled"
                }
                model.put(t.table(), new TableModel(table.items(), t.enabled()));
                yield true;
            }
            case Sweep s -> {
                long now = clock.instant().plusSeconds(s.seconds()).getEpochSecond();
                boolean expired = model.values().stream().filter(TableModel::ttl)
                        .map(table -> table.items().values().removeIf(item -> item.length > 1 && item[1] < now))
                        .reduce(false, Boolean::logicalOr);
                Statistics.label("sweeps").collect(expired ? "expired items" : "expired none");
                yield true;
            }
            case Restart r -> true;
        };
    }

    /** Runs the change on the engine; whether it was answered 200. */
    private static boolean run(DurableEngine engine, Op op, TestClock clock) {
        return switch (op) {
            case Create c -> call(engine, "CreateTable", "{\"TableName\":\"" + c.table() + "\",\"BillingMode\":\"PAY_PER_REQUEST\","
                    + "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
                    + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],"
                    + "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}");
            case Drop d -> call(engine, "DeleteTable", "{\"TableName\":\"" + d.table() + "\"}");
            case Put p -> call(engine, "PutItem", "{\"TableName\":\"" + p.table() + "\",\"Item\":{\"id\":{\"S\":\"" + p.id()
                    + "\"},\"v\":{\"N\":\"" + p.value() + "\"}"
                    + (p.expiresIn() == null ? "" : ",\"exp\":{\"N\":\"" + (START.getEpochSecond() + p.expiresIn()) + "\"}") + "}}");
            case PutIfAbsent p -> call(engine, "PutItem", "{\"TableName\":\"" + p.table() + "\",\"Item\":{\"id\":{\"S\":\"" + p.id()
                    + "\"},\"v\":{\"N\":\"" + p.value() + "\"}},\"ConditionExpression\":\"attribute_not_exists(id)\"}");
            case Delete d -> call(engine, "DeleteItem", "{\"TableName\":\"" + d.table() + "\",\"Key\":{\"id\":{\"S\":\"" + d.id() + "\"}}}");
            case Add a -> call(engine, "UpdateItem", "{\"TableName\":\"" + a.table() + "\",\"Key\":{\"id\":{\"S\":\"" + a.id()
                    + "\"}},\"UpdateExpression\":\"ADD v :n\",\"ExpressionAttributeValues\":{\":n\":{\"N\":\"" + a.by() + "\"}}}");
            case Batch b -> call(engine, "BatchWriteItem", "{\"RequestItems\":{\"" + b.table() + "\":["
                    + String.join(",", b.ids().stream().map(id -> "{\"PutRequest\":{\"Item\":{\"id\":{\"S\":\"" + id
                    + "\"},\"v\":{\"N\":\"" + b.value() + "\"}}}}").toList()) + "]}}");
            case Transact t -> call(engine, "TransactWriteItems", "{\"TransactItems\":["
                    + "{\"Put\":{\"TableName\":\"alpha\",\"Item\":{\"id\":{\"S\":\"" + t.idA() + "\"},\"v\":{\"N\":\"" + t.value() + "\"}}}},"
                    + "{\"Put\":{\"TableName\":\"bravo\",\"Item\":{\"id\":{\"S\":\"" + t.idB() + "\"},\"v\":{\"N\":\"" + t.value() + "\"}}}}]}");
            case Ttl t -> call(engine, "UpdateTimeToLive", "{\"TableName\":\"" + t.table() + "\",\"TimeToLiveSpecification\":"
                    + "{\"Enabled\":" + t.enabled() + ",\"AttributeName\":\"exp\"}}");
            case Sweep s -> {
                clock.advance(Duration.ofSeconds(s.seconds()));
                engine.expireAll();
                yield true;
            }
            case Restart r -> true;
        };
    }

    private static boolean call(DurableEngine engine, String operation, String body) {
        EngineResponse response = engine.handle(DYNAMODB + operation, body.getBytes(StandardCharsets.UTF_8));
        assertThat(response.status()).as("%s: %s", operation, response.bodyText()).isIn(200, 400);
        return response.status() == 200;
    }

    /** The engine's tables as text: each table's TTL status and its items, by id. */
    private static Map<String, String> state(DurableEngine engine) {
        Map<String, String> state = new TreeMap<>();
        for (JsonNode name : read(engine, "ListTables", "{}").get("TableNames")) {
            String table = name.asText();
            String ttl = read(engine, "DescribeTimeToLive", "{\"TableName\":\"" + table + "\"}")
                    .get("TimeToLiveDescription").get("TimeToLiveStatus").asText();
            Map<String, String> items = new TreeMap<>();
            for (JsonNode item : read(engine, "Scan", "{\"TableName\":\"" + table + "\"}").get("Items")) {
                items.put(item.get("id").get("S").asText(), item.get("v").get("N").asText()
                        + (item.has("exp") ? " exp " + item.get("exp").get("N").asText() : ""));
            }
            state.put(table, ttl + " " + items);
        }
        return state;
    }

    private static Map<String, String> render(Map<String, TableModel> model) {
        Map<String, String> state = new TreeMap<>();
        model.forEach((table, t) -> {
            Map<String, String> items = new TreeMap<>();
            t.items().forEach((id, item) -> items.put(id, item[0] + (item.length > 1 ? " exp " + item[1] : "")));
            state.put(table, (t.ttl() ? "ENABLED" : "DISABLED") + " " + items);
        });
        return state;
    }

    private static JsonNode read(DurableEngine engine, String operation, String body) {
        EngineResponse response = engine.handle(DYNAMODB + operation, body.getBytes(StandardCharsets.UTF_8));
        assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, TableModel> copy(Map<String, TableModel> model) {
        Map<String, TableModel> copy = new TreeMap<>();
        model.forEach((k, v) -> copy.put(k, v.copy()));
        return copy;
    }

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        private volatile Instant now;

        TestClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
