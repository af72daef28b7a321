package com.multikey.dynamodb.durable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;

/**
 * The data directory's snapshot: the engine's whole state at the end of a log, which the next log continues. The file
 * is {@link #MAGIC}, then the snapshot's generation (8 bytes), the payload's length (8), the payload's CRC-32C (4), the
 * CRC-32C of the 20 bytes before (4), then the payload (the state as JSON). It is written beside its place, forced,
 * then renamed over it, so it is whole or absent; anything else (a short file, a checksum that fails, bytes after the
 * payload) refuses it ({@link CorruptLogException} naming it), and nothing of it is loaded.
 */
final class SnapshotFile {

    static final byte[] MAGIC = "MKDDBSNAP1\n".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = 24;

    /** A snapshot read back: its generation and its payload. */
    record Loaded(long generation, byte[] payload) {
    }

    private SnapshotFile() {
    }

    /** Writes the snapshot in place of the one at this path (if any), atomically. */
    static void write(Path file, long generation, byte[] payload) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".new");
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.BIG_ENDIAN);
        header.putLong(generation).putLong(payload.length).putInt(WriteAheadLog.crc(payload, 0, payload.length));
        header.putInt(WriteAheadLog.crc(header.array(), 0, 20)).flip();
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer[] buffers = {ByteBuffer.wrap(MAGIC), header, ByteBuffer.wrap(payload)};
            long total = MAGIC.length + HEADER + (long) payload.length;
            long done = 0;
            while (done < total) {
                done += channel.write(buffers);
            }
            channel.force(true);
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        WriteAheadLog.forceDirectory(file.toAbsolutePath().getParent());
    }

    /** The snapshot at this path, or empty when there is none. */
    static Optional<Loaded> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length < MAGIC.length + HEADER || !Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)) {
            throw new CorruptLogException(file, 0, "it is not a whole snapshot of the engine (" + bytes.length + " bytes)");
        }
        ByteBuffer header = ByteBuffer.wrap(bytes, MAGIC.length, HEADER).order(ByteOrder.BIG_ENDIAN);
        long generation = header.getLong();
        long length = header.getLong();
        int payloadCrc = header.getInt();
        if (header.getInt() != WriteAheadLog.crc(bytes, MAGIC.length, 20)) {
            throw new CorruptLogException(file, MAGIC.length, "the snapshot's header checksum does not match");
        }
        int start = MAGIC.length + HEADER;
        if (length != bytes.length - start) {
            throw new CorruptLogException(file, start, "a payload of " + (bytes.length - start) + " bytes where the header says " + length);
        }
        if (WriteAheadLog.crc(bytes, start, (int) length) != payloadCrc) {
            throw new CorruptLogException(file, start, "the snapshot's checksum does not match");
        }
        return Optional.of(new Loaded(generation, Arrays.copyOfRange(bytes, start, bytes.length)));
    }
}
