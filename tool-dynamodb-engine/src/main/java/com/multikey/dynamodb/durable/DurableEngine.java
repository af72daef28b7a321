package com.multikey.dynamodb.durable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.EngineResponse;
import com.multikey.dynamodb.api.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The engine with its state in a data directory: every request that may change the state and was answered 200, and
 * every TTL sweep that deleted items, is appended to a write-ahead log ({@value #LOG_FILE}) with the instant the
 * engine's clock read, and the log is forced to the disk before the answer leaves. Opening the directory replays the
 * log into a new engine, under the logged instants: the same tables, indexes, items, TTL settings, streams and stream
 * records (with their sequence numbers, shard ids and event ids) as before the restart. A restart loses nothing that
 * was acknowledged; see docs/decisions/0033 for the file's format and what a crash may leave.
 *
 * <p>The log is compacted ({@link Compaction}): the whole state is written to a snapshot ({@value #SNAPSHOT_FILE}),
 * then a new log starts after it; opening the directory loads the snapshot, then replays the log after it.
 *
 * <p>The changes run one at a time (so that the log's order is the order they took effect); reads run beside them.
 * Thread-safe.
 */
public final class DurableEngine implements AutoCloseable {

    /** The log's file name in the data directory. */
    public static final String LOG_FILE = "engine.log";
    /** A lock file: one engine at a time per directory. */
    public static final String LOCK_FILE = "engine.lock";
    /** The snapshot the log continues, once the log was compacted. */
    public static final String SNAPSHOT_FILE = "engine.snapshot";

    /**
     * When the log is compacted into a snapshot: once it holds {@code afterLogBytes} bytes and at least as many as the
     * last snapshot (so that a snapshot is written once per so many bytes of changes, whatever the state's size), and
     * when the engine is closed with changes since the last one ({@code onClose}).
     */
    public record Compaction(long afterLogBytes, boolean onClose) {
        public Compaction {
            if (afterLogBytes < 1) {
                throw new IllegalArgumentException("afterLogBytes must be positive: " + afterLogBytes);
            }
        }

        /** Once the log holds 64 MiB (and as much as the last snapshot). */
        public static final Compaction DEFAULT = new Compaction(64L * 1024 * 1024, false);
        /** As {@link #DEFAULT}, and on a clean shutdown, so that the next start loads a snapshot and replays nothing. */
        public static final Compaction DEFAULT_AND_ON_CLOSE = new Compaction(64L * 1024 * 1024, true);
        /** Never: the log grows with every change, as before compaction existed. */
        public static final Compaction NEVER = new Compaction(Long.MAX_VALUE, false);
    }

    private static final String DYNAMODB = "DynamoDB_20120810.";
    /** Requests that never change the state: not logged. Any other request answered 200 is (a new operation is, by default). */
    private static final Set<String> READS = Set.of(DYNAMODB + "GetItem", DYNAMODB + "Query", DYNAMODB + "Scan",
            DYNAMODB + "BatchGetItem", DYNAMODB + "TransactGetItems", DYNAMODB + "DescribeTable", DYNAMODB + "ListTables",
            DYNAMODB + "DescribeTimeToLive", DYNAMODB + "DescribeKinesisStreamingDestination", DYNAMODB + "DescribeLimits",
            DYNAMODB + "DescribeEndpoints", "DynamoDBStreams_20120810.ListStreams", "DynamoDBStreams_20120810.DescribeStream",
            "DynamoDBStreams_20120810.GetShardIterator", "DynamoDBStreams_20120810.GetRecords");

    /** What opening the directory found: the changes replayed, and the torn last record cut off the log, if any. */
    public record Startup(Path log, int replayed, long tornOffset, long tornBytes) {
        public boolean torn() {
            return tornOffset >= 0;
        }
    }

    private final DynamoDbEngine engine;
    private final PinnedClock clock;
    /** Replaced by a compaction, under {@code changes}. */
    private volatile WriteAheadLog log;
    private final FileChannel lockChannel;
    private final Startup startup;
    private final Path directory;
    private final Compaction compaction;
    /** The generation of the snapshot the log continues (0: none); guarded by {@code changes}. */
    private long generation;
    /** The log's size when it held no change yet, and the last snapshot's payload in bytes; guarded by {@code changes}. */
    private long logStart;
    private long snapshotBytes;
    private final Object changes = new Object();
    /** Set when the log could not be written: the state may then hold a change the log lacks, so no change is taken. */
    private volatile IOException failure;
    private ScheduledExecutorService sweeper;

    private DurableEngine(DynamoDbEngine engine, PinnedClock clock, WriteAheadLog log, FileChannel lockChannel, Startup startup,
                          Path directory, Compaction compaction, long generation, long logStart, long snapshotBytes) {
        this.engine = engine;
        this.clock = clock;
        this.log = log;
        this.lockChannel = lockChannel;
        this.startup = startup;
        this.directory = directory;
        this.compaction = compaction;
        this.generation = generation;
        this.logStart = logStart;
        this.snapshotBytes = snapshotBytes;
    }

    /** Opens (making it when missing) a data directory on the system clock, in region us-east-1. */
    public static DurableEngine open(Path directory) {
        return open(directory, Clock.systemUTC(), "us-east-1");
    }

    /** The same, compacting the log as {@code compaction} says. */
    public static DurableEngine open(Path directory, Compaction compaction) {
        return open(directory, Clock.systemUTC(), "us-east-1", compaction);
    }

    /**
     * Opens (making it when missing) a data directory and replays its log. Throws {@link CorruptLogException} when the
     * log is damaged anywhere but in its last record, and IllegalStateException when another engine has it open.
     */
    public static DurableEngine open(Path directory, Clock clock, String region) {
        return open(directory, clock, region, Compaction.DEFAULT);
    }

    /**
     * Opens a data directory as {@link #open(Path, Clock, String)} does, compacting its log as {@code compaction}
     * says. The snapshot is loaded first, then the log after it; a damaged snapshot is refused as a damaged log is.
     */
    public static DurableEngine open(Path directory, Clock clock, String region, Compaction compaction) {
        FileChannel lockChannel = null;
        try {
            Files.createDirectories(directory);
            lockChannel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new IllegalStateException(directory + " is in use by another engine: stop it, or pass another --data-dir");
            }
            Path file = directory.resolve(LOG_FILE);
            Path snapshotFile = directory.resolve(SNAPSHOT_FILE);
            // what a compaction cut short before its rename: never part of the directory's state
            Files.deleteIfExists(directory.resolve(SNAPSHOT_FILE + ".new"));
            Files.deleteIfExists(directory.resolve(LOG_FILE + ".new"));
            Optional<SnapshotFile.Loaded> snapshot = SnapshotFile.read(snapshotFile);
            WriteAheadLog log = WriteAheadLog.open(file);
            PinnedClock pinned = new PinnedClock(clock);
            DynamoDbEngine engine = new DynamoDbEngine(pinned, region);
            WriteAheadLog.Recovery recovery = log.takeRecovery();
            List<LogRecord> records = recovery.records();
            long logGeneration = !records.isEmpty() && records.get(0) instanceof LogRecord.Start start ? start.generation() : 0;
            long snapshotGeneration = snapshot.map(SnapshotFile.Loaded::generation).orElse(0L);
            long logStart = MAGIC_END;
            try {
                if (logGeneration > snapshotGeneration) {
                    throw new CorruptLogException(snapshotFile, "the log " + file + " continues the snapshot of generation "
                            + logGeneration + ", and the directory holds " + (snapshot.isEmpty() ? "no snapshot" : "generation " + snapshotGeneration));
                }
                if (snapshot.isPresent()) {
                    restore(engine, snapshotFile, snapshot.get());
                }
                if (logGeneration == snapshotGeneration) {
                    replay(engine, pinned, file, records);
                    if (logGeneration > 0) {
                        logStart = WriteAheadLog.MAGIC.length + WriteAheadLog.HEADER + LogRecord.encode(records.get(0)).length;
                    }
                } else {
                    // a compaction stopped after its snapshot and before the new log: the snapshot holds this log's changes
                    log.close();
                    log = WriteAheadLog.replace(file, new LogRecord.Start(clock.instant(), snapshotGeneration));
                    logStart = log.size();
                    records = List.of();
                }
            } catch (RuntimeException e) {
                log.close();
                throw e;
            }
            int replayed = (int) records.stream().filter(r -> !(r instanceof LogRecord.Start)).count();
            return new DurableEngine(engine, pinned, log, lockChannel,
                    new Startup(file, replayed, recovery.tornOffset(), recovery.tornBytes()), directory, compaction,
                    snapshotGeneration, logStart, snapshot.map(s -> (long) s.payload().length).orElse(0L));
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new UncheckedIOException("the data directory " + directory + " cannot be opened: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(lockChannel);
            throw e;
        }
    }

    private static final long MAGIC_END = WriteAheadLog.MAGIC.length;

    /** Loads a snapshot into the new engine; a payload that is not a state the engine writes refuses the snapshot. */
    private static void restore(DynamoDbEngine engine, Path file, SnapshotFile.Loaded snapshot) {
        try {
            engine.restoreState(Json.MAPPER.readTree(snapshot.payload()));
        } catch (IOException | RuntimeException e) {
            throw new CorruptLogException(file, "not a state the engine writes (" + e.getMessage() + ")");
        }
    }

    private static void replay(DynamoDbEngine engine, PinnedClock clock, Path file, List<LogRecord> records) {
        int number = 0;
        for (LogRecord record : records) {
            number++;
            if (record instanceof LogRecord.Start) {
                if (number > 1) {
                    throw new CorruptLogException(file, "its record number " + number + " starts a log: only the first may");
                }
                continue;
            }
            clock.pin(record.at());
            try {
                switch (record) {
                    case LogRecord.Request request -> {
                        EngineResponse response = engine.handle(request.target(), request.body());
                        if (response.status() != 200) {
                            throw new CorruptLogException(file, "its change number " + number + " (" + request.target()
                                    + ") now answers " + response.status() + ": the log was written by an engine that "
                                    + "answered otherwise");
                        }
                    }
                    case LogRecord.Expiry expiry -> engine.expireAll(expiry.at());
                    case LogRecord.Start ignored -> throw new IllegalStateException("skipped above");
                }
            } finally {
                clock.unpin();
            }
        }
    }

    /** What opening the directory found. */
    public Startup startup() {
        return startup;
    }

    /** The engine the log feeds: for its faults and in-process calls. Changes made on it directly bypass the log. */
    public DynamoDbEngine engine() {
        return engine;
    }

    /** The log's size in bytes: where the next record will start. */
    long logSize() {
        return log.size();
    }

    /** The generation of the snapshot the log continues; 0 before the first compaction. */
    long generation() {
        synchronized (changes) {
            return generation;
        }
    }

    /**
     * Writes a snapshot of the whole state and starts a new log after it (decision 0033): the snapshot is written
     * beside its place, forced and renamed over it, then the new log the same way. Returns false, and keeps the log,
     * when the state holds what a snapshot does not carry (a Kinesis streaming destination) or the directory failed.
     */
    public boolean compact() {
        synchronized (changes) {
            return compactNow();
        }
    }

    private boolean compactNow() {
        if (failure != null) {
            return false;
        }
        byte[] payload;
        try {
            Optional<ObjectNode> state = engine.exportState();
            if (state.isEmpty()) {
                return false;
            }
            payload = Json.MAPPER.writeValueAsBytes(state.get());
        } catch (IOException | RuntimeException e) {
            // nothing was written: the log goes on as it is
            System.getLogger(DurableEngine.class.getName()).log(System.Logger.Level.WARNING, "the state could not be exported; the log is kept", e);
            return false;
        }
        try {
            // every change appended is on the disk before its log is replaced, so that no answer waits on the old one
            log.sync(log.size());
            long next = generation + 1;
            SnapshotFile.write(directory.resolve(SNAPSHOT_FILE), next, payload);
            WriteAheadLog old = log;
            log = WriteAheadLog.replace(directory.resolve(LOG_FILE), new LogRecord.Start(clock.live(), next));
            old.close();
            generation = next;
            logStart = log.size();
            snapshotBytes = payload.length;
            return true;
        } catch (IOException e) {
            // the directory may now hold the snapshot and the old log: a change appended to it would be lost
            failure = e;
            return false;
        }
    }

    /** After a change: compacts once the log has grown past the threshold (under {@code changes}). */
    private void compactIfDue() {
        long grown = log.size() - logStart;
        if (grown >= Math.max(compaction.afterLogBytes(), snapshotBytes)) {
            compactNow();
        }
    }

    /** Serves one request as {@link DynamoDbEngine#handle} does; a change is answered once it is on the disk. */
    public EngineResponse handle(String target, byte[] body) {
        if (target != null && READS.contains(target)) {
            return engine.handle(target, body);
        }
        EngineResponse response;
        WriteAheadLog current;
        long end;
        synchronized (changes) {
            if (failure != null) {
                return unwritable(failure);
            }
            Instant at = clock.live();
            clock.pin(at);
            try {
                response = engine.handle(target, body);
            } finally {
                clock.unpin();
            }
            if (response.status() != 200) {
                return response; // DynamoDB's errors change nothing: nothing to log
            }
            try {
                current = log;
                end = current.append(new LogRecord.Request(at, target, body));
            } catch (IOException e) {
                failure = e;
                return unwritable(e);
            }
            compactIfDue();
        }
        return sync(current, end, response);
    }

    /** Expires the items of every table with TTL enabled, as the engine's TTL process does, and logs the sweep. */
    public int expireAll() {
        int deleted;
        WriteAheadLog current;
        long end;
        synchronized (changes) {
            if (failure != null) {
                return 0;
            }
            Instant at = clock.live();
            clock.pin(at);
            try {
                deleted = engine.expireAll(at);
            } finally {
                clock.unpin();
            }
            if (deleted == 0) {
                return 0;
            }
            try {
                current = log;
                end = current.append(new LogRecord.Expiry(at));
            } catch (IOException e) {
                failure = e;
                return deleted;
            }
            compactIfDue();
        }
        sync(current, end, null);
        return deleted;
    }

    /** Starts a daemon thread that expires items every {@code interval}, until {@link #close()}. */
    public synchronized DurableEngine startTimeToLiveSweeper(Duration interval) {
        if (sweeper == null) {
            sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "dynamodb-engine-ttl");
                thread.setDaemon(true);
                return thread;
            });
            sweeper.scheduleWithFixedDelay(this::sweep, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private void sweep() {
        try {
            expireAll();
        } catch (RuntimeException e) {
            // a failed sweep must not end the schedule (an exception would cancel it silently)
            System.getLogger(DurableEngine.class.getName()).log(System.Logger.Level.WARNING, "TTL sweep failed", e);
        }
    }

    private EngineResponse sync(WriteAheadLog appendedTo, long end, EngineResponse response) {
        try {
            appendedTo.sync(end);
            return response;
        } catch (IOException e) {
            failure = e;
            return unwritable(e);
        }
    }

    private static EngineResponse unwritable(IOException e) {
        String message = "The engine's data directory cannot be written (" + e.getClass().getSimpleName() + "); restart the engine";
        return new EngineResponse(500, ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\",\"message\":\""
                + message.replace("\"", "'") + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Stops the TTL sweeper, waits for the change under way, compacts the log when {@link Compaction#onClose} says so
     * and it holds changes, closes it and releases the directory.
     */
    @Override
    public void close() {
        close(compaction.onClose());
    }

    /** Closes as a process killed after its last answer would leave the directory: no compaction. */
    void halt() {
        close(false);
    }

    private void close(boolean compact) {
        synchronized (this) {
            if (sweeper != null) {
                sweeper.shutdownNow();
                try {
                    sweeper.awaitTermination(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                sweeper = null;
            }
        }
        synchronized (changes) {
            if (compact && failure == null && log.size() > logStart) {
                compactNow();
            }
            if (failure == null) {
                failure = new IOException("the engine is closed");
            }
            try {
                log.close();
            } catch (IOException e) {
                // every acknowledged change was forced already: closing loses nothing
            }
            closeQuietly(lockChannel);
        }
        engine.close();
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the lock goes with the channel; nothing else to release
            }
        }
    }
}
