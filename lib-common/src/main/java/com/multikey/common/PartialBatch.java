package com.multikey.common;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse.BatchItemFailure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The partial-batch skeleton every stream consumer shares (ReportBatchItemFailures): reads each record of
 * a batch, skips with one log line those that can never be processed, hands the rest to the consumer's
 * own logic, and answers Lambda with the sequence numbers of the records it must deliver again.
 *
 * <p>A skipped record never blocks the shard; a record to deliver again without a sequence number cannot
 * be reported, so the whole batch fails ({@link BatchFailedException}) and Lambda retries it.
 *
 * @param <T> what the consumer works on: a record as it reads it (e.g. a {@link ChangeRecord})
 */
public final class PartialBatch<T> {

    /** Reads one record; throws {@link MalformedRecordException} for a record that can never be processed. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(DynamodbStreamRecord record);
    }

    /** The consumer's work on the readable records of one batch. */
    @FunctionalInterface
    public interface Logic<T, R> {
        Outcome<T, R> process(List<T> records, Deadline deadline);
    }

    /**
     * What the consumer did.
     *
     * @param redeliver records whose work failed for now: Lambda delivers them (and all after) again
     * @param skipped   records the consumer can never process, with the reason (logged here)
     * @param report    the consumer's own counts, handed back with the answer
     */
    public record Outcome<T, R>(List<T> redeliver, List<Skipped> skipped, R report) {
        public Outcome {
            redeliver = List.copyOf(redeliver);
            skipped = List.copyOf(skipped);
        }
    }

    /** A record skipped as a whole: its item key, event id and sequence number (empty when it has none), and why. */
    public record Skipped(String itemKey, String eventId, String sequenceNumber, String reason) {
    }

    /**
     * The answer for Lambda and what the batch held.
     *
     * @param skipped records skipped, unreadable ones and those the consumer skipped
     * @param failed  records reported for redelivery
     */
    public record Result<R>(StreamsEventResponse response, int records, int skipped, int failed, R report) {
    }

    private final Reader<T> reader;
    private final Function<T, Optional<String>> sequenceNumber;
    private final String keyAttribute;
    private final StructuredLog log;

    /**
     * @param sequenceNumber the sequence number of a record as read
     * @param keyAttribute   the table's partition key attribute, to name an unreadable record's item in the log
     */
    public PartialBatch(Reader<T> reader, Function<T, Optional<String>> sequenceNumber, String keyAttribute, StructuredLog log) {
        this.reader = reader;
        this.sequenceNumber = sequenceNumber;
        this.keyAttribute = keyAttribute;
        this.log = log;
    }

    /**
     * A record of another source (a Kinesis record of DynamoDB's changes) as its consumer read it: the record, or
     * why it can never be processed.
     */
    public sealed interface Decoded<T> {

        record Read<T>(T record) implements Decoded<T> {
        }

        record Unreadable<T>(Skipped skipped) implements Decoded<T> {
        }
    }

    /** @throws BatchFailedException when a record to deliver again has no sequence number to report */
    public <R> Result<R> process(List<DynamodbStreamRecord> records, Deadline deadline, Logic<T, R> logic) {
        List<DynamodbStreamRecord> batch = records == null ? List.of() : records;
        List<Decoded<T>> decoded = new ArrayList<>();
        for (DynamodbStreamRecord record : batch) {
            try {
                decoded.add(new Decoded.Read<>(reader.read(record)));
            } catch (MalformedRecordException e) {
                decoded.add(new Decoded.Unreadable<>(new Skipped(keyOf(record), eventIdOf(record), sequenceOf(record), e.getMessage())));
            }
        }
        return processDecoded(decoded, deadline, logic);
    }

    /**
     * As {@link #process}, for records another source's reader already read (the reader given to the constructor
     * is not used).
     *
     * @throws BatchFailedException when a record to deliver again has no sequence number to report
     */
    public <R> Result<R> processDecoded(List<Decoded<T>> batch, Deadline deadline, Logic<T, R> logic) {
        List<T> readable = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (Decoded<T> record : batch) {
            switch (record) {
                case Decoded.Read<T> read -> readable.add(read.record());
                case Decoded.Unreadable<T> unreadable -> skipped.add(unreadable.skipped());
            }
        }
        Outcome<T, R> outcome = logic.process(readable, deadline);
        skipped.addAll(outcome.skipped());
        for (Skipped record : skipped) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("itemKey", record.itemKey());
            fields.put("eventId", record.eventId());
            fields.put("sequenceNumber", record.sequenceNumber());
            fields.put("reason", record.reason());
            log.warn("stream record skipped", fields);
        }
        Set<String> failed = new LinkedHashSet<>();
        for (T record : outcome.redeliver()) {
            failed.add(sequenceNumber.apply(record).orElseThrow(() -> new BatchFailedException(
                    "a record must be delivered again but has no sequence number to report")));
        }
        return new Result<>(new StreamsEventResponse(failed.stream().map(BatchItemFailure::new).toList()),
                batch.size(), skipped.size(), failed.size(), outcome.report());
    }

    /**
     * The item key of a record that could not be read, for the log line: the key attribute's string value when
     * that is the whole key, otherwise every key attribute as {@code name=value} (binary values in base64), as
     * the consumers name an item key in their own log lines.
     */
    private String keyOf(DynamodbStreamRecord record) {
        if (record == null || record.getDynamodb() == null || record.getDynamodb().getKeys() == null
                || record.getDynamodb().getKeys().isEmpty()) {
            return "(unknown)";
        }
        Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> keys = record.getDynamodb().getKeys();
        com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue id = keys.get(keyAttribute);
        if (keys.size() == 1 && id != null && id.getS() != null) {
            return id.getS();
        }
        StringBuilder text = new StringBuilder();
        new java.util.TreeMap<>(keys).forEach((name, value) -> {
            String shown = value == null ? null : value.getS() != null ? value.getS() : value.getN() != null ? value.getN()
                    : value.getB() != null ? java.util.Base64.getEncoder().encodeToString(bytes(value.getB())) : null;
            text.append(text.isEmpty() ? "" : " ").append(name).append('=').append(shown == null ? "?" : shown);
        });
        return text.toString();
    }

    private static byte[] bytes(java.nio.ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static String eventIdOf(DynamodbStreamRecord record) {
        return record == null || record.getEventID() == null ? "(unknown)" : record.getEventID();
    }

    private static String sequenceOf(DynamodbStreamRecord record) {
        if (record == null || record.getDynamodb() == null || record.getDynamodb().getSequenceNumber() == null) {
            return "";
        }
        return record.getDynamodb().getSequenceNumber();
    }
}
