package com.multikey.dynamodb.durable;

import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.EngineResponse;

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
 * <p>The changes run one at a time (so that the log's order is the order they took effect); reads run beside them.
 * Thread-safe.
 */
public final class DurableEngine implements AutoCloseable {

    /** The log's file name in the data directory. */
    public static final String LOG_FILE = "engine.log";
    /** A lock file: one engine at a time per directory. */
    public static final String LOCK_FILE = "engine.lock";

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
    private final WriteAheadLog log;
    private final FileChannel lockChannel;
    private final Startup startup;
    private final Object changes = new Object();
    /** Set when the log could not be written: the state may then hold a change the log lacks, so no change is taken. */
    private volatile IOException failure;
    private ScheduledExecutorService sweeper;

    private DurableEngine(DynamoDbEngine engine, PinnedClock clock, WriteAheadLog log, FileChannel lockChannel, Startup startup) {
        this.engine = engine;
        this.clock = clock;
        this.log = log;
        this.lockChannel = lockChannel;
        this.startup = startup;
    }

    /** Opens (making it when missing) a data directory on the system clock, in region us-east-1. */
    public static DurableEngine open(Path directory) {
        return open(directory, Clock.systemUTC(), "us-east-1");
    }

    /**
     * Opens (making it when missing) a data directory and replays its log. Throws {@link CorruptLogException} when the
     * log is damaged anywhere but in its last record, and IllegalStateException when another engine has it open.
     */
    public static DurableEngine open(Path directory, Clock clock, String region) {
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
            WriteAheadLog log = WriteAheadLog.open(file);
            PinnedClock pinned = new PinnedClock(clock);
            DynamoDbEngine engine = new DynamoDbEngine(pinned, region);
            WriteAheadLog.Recovery recovery = log.takeRecovery();
            try {
                replay(engine, pinned, file, recovery);
            } catch (RuntimeException e) {
                log.close();
                throw e;
            }
            return new DurableEngine(engine, pinned, log, lockChannel,
                    new Startup(file, recovery.records().size(), recovery.tornOffset(), recovery.tornBytes()));
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new UncheckedIOException("the data directory " + directory + " cannot be opened: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(lockChannel);
            throw e;
        }
    }

    private static void replay(DynamoDbEngine engine, PinnedClock clock, Path file, WriteAheadLog.Recovery recovery) {
        int number = 0;
        for (LogRecord record : recovery.records()) {
            number++;
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

    /** Serves one request as {@link DynamoDbEngine#handle} does; a change is answered once it is on the disk. */
    public EngineResponse handle(String target, byte[] body) {
        if (target != null && READS.contains(target)) {
            return engine.handle(target, body);
        }
        EngineResponse response;
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
                end = log.append(new LogRecord.Request(at, target, body));
            } catch (IOException e) {
                failure = e;
                return unwritable(e);
            }
        }
        return sync(end, response);
    }

    /** Expires the items of every table with TTL enabled, as the engine's TTL process does, and logs the sweep. */
    public int expireAll() {
        int deleted;
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
                end = log.append(new LogRecord.Expiry(at));
            } catch (IOException e) {
                failure = e;
                return deleted;
            }
        }
        sync(end, null);
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

    private EngineResponse sync(long end, EngineResponse response) {
        try {
            log.sync(end);
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

    /** Stops the TTL sweeper, waits for the change under way, closes the log and releases the directory. */
    @Override
    public void close() {
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
