package com.multikey.dynamodb.durable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The engine's write-ahead log: a file that starts with {@link #MAGIC}, then records, each framed as
 * <pre>
 *   length (4 bytes) | CRC-32C of the payload (4) | CRC-32C of the 8 bytes before (4) | payload (length bytes)
 * </pre>
 * big-endian. Appends are written at once and made durable by {@link #sync}, which forces the file once for every
 * append before it (group commit).
 *
 * <p>On {@link #open} every record is checked. The one damage accepted is a torn last record, one a crash cut short
 * (its header or payload runs past the end of the file, its checksum fails and it ends the file, or the file ends in
 * zero bytes where a header should be): it was never acknowledged, because an answer waits for the sync, and it is cut
 * off the file. Any other damage refuses the whole file ({@link CorruptLogException}, naming it and the offset).
 */
final class WriteAheadLog implements AutoCloseable {

    static final byte[] MAGIC = "MKDDBLOG1\n".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER = 12;
    /** The largest payload: a request of the largest size the server takes, with room for its target and instant. */
    static final int MAX_PAYLOAD = 16 * 1024 * 1024 + 64 * 1024;

    /** What {@link #open} read: the records, and the torn last record it cut off, if any (offset -1: none). */
    record Recovery(List<LogRecord> records, long tornOffset, long tornBytes) {
        boolean torn() {
            return tornOffset >= 0;
        }
    }

    private final Path file;
    private final FileChannel channel;
    private final Object syncLock = new Object();
    /** The end of the appended records; written under the caller's lock, read by syncs. */
    private volatile long written;
    /** The end of the records forced to the disk; guarded by syncLock. */
    private long synced;

    private Recovery recovery;

    private WriteAheadLog(Path file, FileChannel channel, long end, Recovery recovery) {
        this.file = file;
        this.channel = channel;
        this.written = end;
        this.synced = end;
        this.recovery = recovery;
    }

    /**
     * Opens the log at this path, made (with the directory entry forced) when missing, and reads its records; a torn
     * last record is cut off the file first.
     */
    static WriteAheadLog open(Path file) throws IOException {
        boolean fresh = !Files.exists(file);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            long size = channel.size();
            byte[] head = read(channel, 0, (int) Math.min(size, MAGIC.length));
            if (size < MAGIC.length && Arrays.equals(head, Arrays.copyOf(MAGIC, head.length))) {
                // a new file, or one whose making a crash cut short: no record was ever in it
                channel.truncate(0);
                channel.write(ByteBuffer.wrap(MAGIC), 0);
                channel.force(true);
                if (fresh || size == 0) {
                    forceDirectory(file.toAbsolutePath().getParent());
                }
                return new WriteAheadLog(file, channel, MAGIC.length, new Recovery(List.of(), -1, 0));
            }
            if (!Arrays.equals(head, MAGIC)) {
                throw new CorruptLogException(file, 0, "it does not start as the engine's log does");
            }
            List<LogRecord> records = new ArrayList<>();
            long end = scan(file, channel, size, records);
            if (end < size) {
                channel.truncate(end);
                channel.force(true);
            }
            return new WriteAheadLog(file, channel, end, new Recovery(records, end < size ? end : -1, size - end));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Replaces the log at this path by a new one that holds only {@code first}: written beside it, forced, then renamed
     * over it (and the directory forced), so that a crash leaves the old log or the new one, whole.
     */
    static WriteAheadLog replace(Path file, LogRecord first) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".new");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(MAGIC), 0);
            channel.write(ByteBuffer.wrap(frame(LogRecord.encode(first))), MAGIC.length);
            channel.force(true);
        }
        Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(file.toAbsolutePath().getParent());
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new WriteAheadLog(file, channel, channel.size(), new Recovery(List.of(), -1, 0));
    }

    /** Reads the records into {@code into}; returns where the last whole record ends (before a torn one, if any). */
    private static long scan(Path file, FileChannel channel, long size, List<LogRecord> into) throws IOException {
        long at = MAGIC.length;
        while (at < size) {
            long left = size - at;
            if (left < HEADER) {
                return at;
            }
            ByteBuffer header = ByteBuffer.wrap(read(channel, at, HEADER)).order(ByteOrder.BIG_ENDIAN);
            int length = header.getInt(0);
            int payloadCrc = header.getInt(4);
            if (header.getInt(8) != crc(header.array(), 0, 8)) {
                if (zeros(channel, at, size)) {
                    return at;
                }
                throw new CorruptLogException(file, at, "the record's header checksum does not match");
            }
            if (length <= 0 || length > MAX_PAYLOAD) {
                throw new CorruptLogException(file, at, "a record of " + length + " bytes");
            }
            if (HEADER + (long) length > left) {
                return at;
            }
            byte[] payload = read(channel, at + HEADER, length);
            if (crc(payload, 0, length) != payloadCrc) {
                if (at + HEADER + length == size) {
                    return at;
                }
                throw new CorruptLogException(file, at, "the record's checksum does not match");
            }
            try {
                into.add(LogRecord.decode(payload));
            } catch (IOException e) {
                throw new CorruptLogException(file, at, "not a record the engine writes (" + e.getMessage() + ")");
            }
            at += HEADER + length;
        }
        return at;
    }

    /** Writes a record after the others (not yet durable: see {@link #sync}); returns the log's end after it. Callers serialize appends. */
    long append(LogRecord record) throws IOException {
        byte[] payload = LogRecord.encode(record);
        if (payload.length > MAX_PAYLOAD) {
            throw new IOException("a record of " + payload.length + " bytes is over the log's limit");
        }
        ByteBuffer buffer = ByteBuffer.wrap(frame(payload));
        long position = written;
        while (buffer.hasRemaining()) {
            position += channel.write(buffer, position);
        }
        written = position;
        return position;
    }

    /** A record's bytes in the file: its header, then its payload. */
    private static byte[] frame(byte[] payload) {
        ByteBuffer buffer = ByteBuffer.allocate(HEADER + payload.length).order(ByteOrder.BIG_ENDIAN);
        buffer.putInt(payload.length).putInt(crc(payload, 0, payload.length));
        buffer.putInt(crc(buffer.array(), 0, 8)).put(payload);
        return buffer.array();
    }

    /** Returns once every record up to {@code end} is on the disk; one force serves every append before it. */
    void sync(long end) throws IOException {
        synchronized (syncLock) {
            if (synced >= end) {
                return;
            }
            long target = written;
            channel.force(false);
            synced = target;
        }
    }

    /** What opening the file read; once only, so that the records are not kept after the replay. */
    Recovery takeRecovery() {
        Recovery taken = recovery;
        recovery = null;
        return taken;
    }

    /** The end of the appended records, in bytes from the file's start. */
    long size() {
        return written;
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    static int crc(byte[] bytes, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, length);
        return (int) crc.getValue();
    }

    private static byte[] read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("the file ended while reading it");
            }
        }
        return buffer.array();
    }

    private static boolean zeros(FileChannel channel, long from, long size) throws IOException {
        for (long at = from; at < size; at += 65536) {
            for (byte b : read(channel, at, (int) Math.min(65536, size - at))) {
                if (b != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    static void forceDirectory(Path directory) {
        if (directory == null) {
            return;
        }
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // some systems cannot open a directory to force it; the file itself was forced
        }
    }
}
