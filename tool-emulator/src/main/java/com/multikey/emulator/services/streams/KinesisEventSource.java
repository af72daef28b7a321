package com.multikey.emulator.services.streams;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.services.kinesis.KinesisStreams;
import com.multikey.emulator.services.sqs.LocalSqs;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One batch lane of a Kinesis event source mapping, emulated: records of one shard (with {@code ParallelizationFactor}
 * above 1, those of the shard's partition keys this lane takes) delivered in batches of {@code BatchSize} as the
 * {@code KinesisEvent} Lambda sends ({@code kinesis.data} in base64, {@code sequenceNumber}, {@code partitionKey},
 * {@code approximateArrivalTimestamp}, {@code eventSourceARN}, {@code eventID} {@code <shardId>:<sequenceNumber>}). A
 * partial batch response ({@code ReportBatchItemFailures}: item identifiers are Kinesis sequence numbers) checkpoints
 * at the lowest failed sequence number and delivers again from there; a handler error retries the batch, halved when
 * {@code BisectBatchOnFunctionError} is on; after {@code MaximumRetryAttempts} the batch's invocation record
 * ({@code KinesisBatchInfo}) goes to the on-failure queue and delivery goes on.
 */
final class KinesisEventSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where a lane sends the invocation record of a batch it gave up on: the queue's name, or null for none. */
    record OnFailure(LocalSqs sqs, String queueName, String functionArn) {
    }

    private final String name;
    private final String streamArn;
    private final String shardId;
    private final int batchSize;
    private final int maximumRetryAttempts;
    private final boolean bisect;
    private final Function<String, StreamsEventResponse> target;
    private final Consumer<String> out;
    private final OnFailure onFailureQueue;
    private final List<KinesisStreams.Record> pending = new ArrayList<>();
    private final List<List<String>> onFailure = new CopyOnWriteArrayList<>();
    private int retries;
    private int attemptSize;

    KinesisEventSource(String name, String streamArn, String shardId, int batchSize, int maximumRetryAttempts, boolean bisect,
                       Function<String, StreamsEventResponse> target, Consumer<String> out, OnFailure onFailureQueue) {
        this.name = name;
        this.streamArn = streamArn;
        this.shardId = shardId;
        this.batchSize = batchSize;
        this.maximumRetryAttempts = maximumRetryAttempts;
        this.bisect = bisect;
        this.target = target;
        this.out = out;
        this.onFailureQueue = onFailureQueue;
        this.attemptSize = batchSize;
    }

    void offer(List<KinesisStreams.Record> records) {
        pending.addAll(records);
    }

    boolean idle() {
        return pending.isEmpty();
    }

    List<List<String>> onFailure() {
        return List.copyOf(onFailure);
    }

    /** The JSON of a Kinesis event with these records of one shard, as Lambda delivers it. */
    static String eventJson(List<KinesisStreams.Record> records, String streamArn, String shardId) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode array = event.putArray("Records");
        for (KinesisStreams.Record record : records) {
            ObjectNode node = array.addObject();
            node.putObject("kinesis").put("kinesisSchemaVersion", "1.0").put("partitionKey", record.partitionKey())
                    .put("sequenceNumber", record.sequenceNumber()).put("data", Base64.getEncoder().encodeToString(record.data()))
                    .put("approximateArrivalTimestamp", BigDecimal.valueOf(record.arrival().toEpochMilli()).movePointLeft(3));
            node.put("eventSource", "aws:kinesis").put("eventVersion", "1.0")
                    .put("eventID", shardId + ":" + record.sequenceNumber()).put("eventName", "aws:kinesis:record")
                    .put("invokeIdentityArn", "arn:aws:iam::000000000000:role/local").put("awsRegion", "us-east-1")
                    .put("eventSourceARN", streamArn);
        }
        return event.toString();
    }

    /** One delivery attempt of the next batch; whether anything was delivered. */
    boolean deliverOnce() {
        if (pending.isEmpty()) {
            return false;
        }
        List<KinesisStreams.Record> batch = List.copyOf(pending.subList(0, Math.min(attemptSize, pending.size())));
        StreamsEventResponse response;
        try {
            response = target.apply(eventJson(batch, streamArn, shardId));
        } catch (RuntimeException e) {
            out.accept(String.format("%s: batch of %d failed: %s", name, batch.size(), e.getMessage()));
            failed(batch, bisect && batch.size() > 1 ? Math.max(1, batch.size() / 2) : batch.size());
            return true;
        }
        Set<String> failures = response == null || response.getBatchItemFailures() == null ? Set.of()
                : response.getBatchItemFailures().stream().map(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .collect(Collectors.toSet());
        int firstFailed = -1;
        for (int i = 0; i < batch.size() && firstFailed < 0; i++) {
            if (failures.contains(batch.get(i).sequenceNumber())) {
                firstFailed = i;
            }
        }
        if (firstFailed < 0) {
            out.accept(String.format("%s: batch of %d records delivered", name, batch.size()));
            pending.subList(0, batch.size()).clear();
            retries = 0;
            attemptSize = batchSize;
            return true;
        }
        out.accept(String.format("%s: batch of %d records, %d reported failed; delivering again from sequence number %s",
                name, batch.size(), failures.size(), batch.get(firstFailed).sequenceNumber()));
        pending.subList(0, firstFailed).clear();
        failed(batch.subList(firstFailed, batch.size()), batchSize);
        return true;
    }

    private void failed(List<KinesisStreams.Record> batch, int nextSize) {
        retries++;
        if (retries > maximumRetryAttempts) {
            onFailure.add(batch.stream().map(KinesisStreams.Record::sequenceNumber).toList());
            if (onFailureQueue != null) {
                onFailureQueue.sqs().send(onFailureQueue.queueName(), invocationRecord(batch, retries, onFailureQueue.functionArn()));
            }
            out.accept(String.format("%s: retries exhausted; %d records sent to the on-failure destination", name, batch.size()));
            pending.subList(0, batch.size()).clear();
            retries = 0;
            attemptSize = batchSize;
        } else {
            attemptSize = nextSize;
        }
    }

    /** The invocation record Lambda sends for a Kinesis batch it gave up on: it names the records ({@code KinesisBatchInfo}). */
    private String invocationRecord(List<KinesisStreams.Record> batch, int invokeCount, String functionArn) {
        ObjectNode message = JSON.createObjectNode();
        message.putObject("requestContext").put("requestId", UUID.randomUUID().toString()).put("functionArn", functionArn)
                .put("condition", StreamOnFailureRecord.RETRY_ATTEMPTS_EXHAUSTED).put("approximateInvokeCount", invokeCount);
        message.putObject("responseContext").put("statusCode", 200).put("executedVersion", "$LATEST").put("functionError", "Unhandled");
        message.put("version", "1.0");
        message.put("timestamp", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        KinesisStreams.Record first = batch.get(0);
        KinesisStreams.Record last = batch.get(batch.size() - 1);
        message.putObject("KinesisBatchInfo").put("shardId", shardId)
                .put("startSequenceNumber", first.sequenceNumber()).put("endSequenceNumber", last.sequenceNumber())
                .put("approximateArrivalOfFirstRecord", first.arrival().truncatedTo(ChronoUnit.MILLIS).toString())
                .put("approximateArrivalOfLastRecord", last.arrival().truncatedTo(ChronoUnit.MILLIS).toString())
                .put("batchSize", batch.size()).put("streamArn", streamArn);
        return message.toString();
    }
}
