package com.multikey.redrive;

import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The router's failure queue: reads the range back and invokes the router with its records as a DynamoDB
 * event, so the router's own handler produces their events again (at least once: events that reached the
 * bus before the batch was given up on are sent again, and rule targets must be idempotent, as for any
 * retry). A range no longer in the stream is reported: its events can no longer be produced.
 */
final class RouterRedrive implements MessageAction {

    static final String GONE_ADVICE = "the events of these records can no longer be produced; the items' current state is in the"
            + " app table";
    /** Records per invocation: the event source mapping's own batch size in template.yaml. */
    static final int MAX_RECORDS_PER_INVOKE = 100;

    private final StreamRangeReader reader;
    private final KinesisRangeReader kinesis;
    private final FunctionInvoker invoker;
    private final String routerFunction;

    RouterRedrive(StreamRangeReader reader, FunctionInvoker invoker, String routerFunction) {
        this(reader, null, invoker, routerFunction);
    }

    /** @param kinesis reads the ranges of {@code KinesisBatchInfo} messages back (null: the stack has no Kinesis source) */
    RouterRedrive(StreamRangeReader reader, KinesisRangeReader kinesis, FunctionInvoker invoker, String routerFunction) {
        this.reader = reader;
        this.kinesis = kinesis;
        this.invoker = invoker;
        this.routerFunction = routerFunction;
    }

    @Override
    public Result handle(String body, boolean dryRun) {
        OnFailureRecord range = OnFailureRecord.parse(body);
        return switch (range.source()) {
            case DYNAMODB_STREAM -> switch (reader.read(range)) {
                case StreamRange.Gone gone -> new Result.Gone(range.describe(), gone.reason(), GONE_ADVICE);
                case StreamRange.Found found -> dryRun
                        ? new Result.Done("would re-send the events of " + found.records().size() + " records through " + routerFunction)
                        : resend(chunks(found.records(), range.streamArn()), chunk -> StreamEventJson.event(chunk, range.streamArn()));
            };
            // a Kinesis range goes back to the router as the Kinesis event it was: its handler on that source reads those
            case KINESIS -> {
                if (kinesis == null) {
                    throw new IllegalArgumentException("a Kinesis range (KinesisBatchInfo), but redrive has no Kinesis client configured");
                }
                String streamArn = KinesisRangeReader.streamOf(range.streamArn());
                yield switch (kinesis.read(range)) {
                    case KinesisRange.Gone gone -> new Result.Gone(range.describe(), gone.reason(), GONE_ADVICE);
                    case KinesisRange.Found found -> dryRun
                            ? new Result.Done("would re-send the events of " + found.records().size() + " records through " + routerFunction)
                            : resend(chunks(found.records(), record -> KinesisChanges.event(List.of(record), streamArn, range.shardId())),
                                    chunk -> KinesisChanges.event(chunk, streamArn, range.shardId()));
                };
            }
        };
    }

    private <R> Result resend(List<List<R>> chunks, java.util.function.Function<List<R>, String> events) {
        int records = 0;
        for (List<R> chunk : chunks) {
            String answer = invoker.invoke(routerFunction, events.apply(chunk));
            List<String> failed = batchItemFailures(answer);
            if (!failed.isEmpty()) {
                return new Result.Failed("the router reported " + failed.size() + " of " + chunk.size()
                        + " records failed again, from sequence number " + failed.get(0));
            }
            records += chunk.size();
        }
        return new Result.Done("re-sent the events of " + records + " records through " + routerFunction);
    }

    /** Invocations of at most {@value #MAX_RECORDS_PER_INVOKE} records and under Invoke's payload limit. */
    static List<List<Record>> chunks(List<Record> records, String streamArn) {
        return chunks(records, record -> StreamEventJson.event(List.of(record), streamArn));
    }

    /** As {@link #chunks(List, String)}, each record's size that of an event of it alone. */
    static <R> List<List<R>> chunks(List<R> records, java.util.function.Function<R, String> eventOfOne) {
        List<List<R>> chunks = new ArrayList<>();
        List<R> current = new ArrayList<>();
        int bytes = 0;
        for (R record : records) {
            int size = eventOfOne.apply(record).getBytes(StandardCharsets.UTF_8).length;
            if (!current.isEmpty() && (current.size() == MAX_RECORDS_PER_INVOKE || bytes + size > LambdaFunctionInvoker.MAX_PAYLOAD_BYTES - 64)) {
                chunks.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(record);
            bytes += size;
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        return chunks;
    }

    static List<String> batchItemFailures(String answer) {
        if (answer == null || answer.isBlank() || "null".equals(answer.strip())) {
            return List.of();
        }
        JsonNode response;
        try {
            response = Json.parse(answer);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the router's answer is not a partial batch response: " + e.getMessage(), e);
        }
        List<String> failed = new ArrayList<>();
        Json.field(response, "batchItemFailures").filter(JsonNode::isArray).ifPresent(failures ->
                failures.asArray().forEach(f -> failed.add(String.valueOf(Json.text(f, "itemIdentifier")))));
        return failed;
    }
}
