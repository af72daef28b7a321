package com.multikey.dynamodb.durable;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the write-ahead log: what changed the engine's state and the instant the engine's clock read while it
 * did, so that replaying the entries in order rebuilds the same tables, streams and timestamps.
 */
sealed interface LogRecord {

    byte REQUEST = 1;
    byte EXPIRY = 2;
    byte START = 3;

    /** When the change happened: the engine's clock during the change. */
    Instant at();

    /** A request the engine answered with 200: the X-Amz-Target header and the body as received. */
    record Request(Instant at, String target, byte[] body) implements LogRecord {
        public Request {
            Objects.requireNonNull(at);
            Objects.requireNonNull(target);
            Objects.requireNonNull(body);
        }
    }

    /** A sweep of the TTL process that deleted at least one expired item. */
    record Expiry(Instant at) implements LogRecord {
        public Expiry {
            Objects.requireNonNull(at);
        }
    }

    /**
     * The first record of a log that continues a snapshot: the snapshot's generation. A log without one continues
     * no snapshot (generation 0).
     */
    record Start(Instant at, long generation) implements LogRecord {
        public Start {
            Objects.requireNonNull(at);
        }
    }

    static byte[] encode(LogRecord record) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            switch (record) {
                case Request request -> {
                    out.writeByte(REQUEST);
                    instant(out, request.at());
                    out.writeUTF(request.target());
                    out.writeInt(request.body().length);
                    out.write(request.body());
                }
                case Expiry expiry -> {
                    out.writeByte(EXPIRY);
                    instant(out, expiry.at());
                }
                case Start start -> {
                    out.writeByte(START);
                    instant(out, start.at());
                    out.writeLong(start.generation());
                }
            }
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        return bytes.toByteArray();
    }

    /** The record these bytes encode; IOException when they encode none (an unknown kind, a short or long payload). */
    static LogRecord decode(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload));
        try {
            byte kind = in.readByte();
            LogRecord record = switch (kind) {
                case REQUEST -> {
                    Instant at = Instant.ofEpochSecond(in.readLong(), in.readInt());
                    String target = in.readUTF();
                    int length = in.readInt();
                    if (length < 0 || length > in.available()) {
                        throw new IOException("a request body of " + length + " bytes in a record of " + payload.length);
                    }
                    yield new Request(at, target, in.readNBytes(length));
                }
                case EXPIRY -> new Expiry(Instant.ofEpochSecond(in.readLong(), in.readInt()));
                case START -> new Start(Instant.ofEpochSecond(in.readLong(), in.readInt()), in.readLong());
                default -> throw new IOException("an unknown record kind " + kind);
            };
            if (in.available() > 0) {
                throw new IOException(in.available() + " bytes after the record");
            }
            return record;
        } catch (EOFException e) {
            throw new IOException("a record shorter than its kind needs", e);
        }
    }

    private static void instant(DataOutputStream out, Instant at) throws IOException {
        out.writeLong(at.getEpochSecond());
        out.writeInt(at.getNano());
    }
}
