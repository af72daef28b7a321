package com.multikey.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Output;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.EventSourceMappingConfiguration;
import software.amazon.awssdk.services.lambda.model.ListEventSourceMappingsResponse;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Who already reads a table's stream, as Lambda lists its event source mappings, how many readers a shard would have
 * with each of the stack's modes ({@code StreamReaders} two or one), and which mode keeps it within the two readers a
 * shard serves without throttling (DynamoDB Streams API reference, LimitExceededException).
 *
 * @param streamArn the stream listed (null: the table has none)
 * @param listing   the mappings Lambda listed, or why none could be listed
 */
record StreamReaders(String streamArn, Listing listing) {

    /** "More than 2 processes are reading from the same streams shard at the same time" throttles (DynamoDB Streams). */
    static final int READERS_A_SHARD = 2;

    /** What ListEventSourceMappings cannot show: every reader that is not a Lambda function's mapping in this account and region. */
    static final List<String> NOT_VISIBLE = List.of(
            "Kinesis Client Library applications and the DynamoDB Streams Kinesis Adapter",
            "EventBridge Pipes (not Lambda mappings: aws pipes list-pipes --source-prefix <stream ARN>)",
            "Lambda functions of other accounts or regions, and any program calling GetRecords itself");

    /** Lambda's answer, or why there is none. */
    sealed interface Listing {
        /** The mappings whose event source is the stream. */
        record Listed(List<Reader> readers) implements Listing {
            public Listed {
                readers = List.copyOf(readers);
            }
        }

        /** Nothing listed, and why (no stream, no Lambda endpoint for a local table, a refused call). */
        record NotListed(String reason) implements Listing {
        }
    }

    /** One event source mapping: its id, the function it invokes and its state ({@code Enabled}, {@code Disabled}, …). */
    record Reader(String uuid, String functionArn, String state) {
        /** A disabled mapping reads nothing; every other state (enabled, creating, updating, disabling) may. */
        boolean reads() {
            return !"Disabled".equalsIgnoreCase(state);
        }
    }

    /** The stack's modes and the readers a shard gets from each. */
    enum Mode {
        TWO("two", 2), ONE("one", 1);

        final String parameter;
        final int readers;

        Mode(String parameter, int readers) {
            this.parameter = parameter;
            this.readers = readers;
        }
    }

    /** Lists the stream's mappings with {@code lambda} (every page); a refused or failed call is reported, not thrown. */
    static StreamReaders list(LambdaClient lambda, String streamArn) {
        List<Reader> readers = new ArrayList<>();
        String marker = null;
        try {
            do {
                String page = marker;
                ListEventSourceMappingsResponse response = lambda.listEventSourceMappings(b -> b.eventSourceArn(streamArn).marker(page));
                for (EventSourceMappingConfiguration mapping : response.eventSourceMappings()) {
                    readers.add(new Reader(mapping.uuid(), mapping.functionArn(), mapping.state()));
                }
                marker = response.nextMarker();
            } while (marker != null && !marker.isEmpty());
        } catch (SdkException e) {
            String code = e instanceof software.amazon.awssdk.awscore.exception.AwsServiceException service && service.awsErrorDetails() != null
                    ? service.awsErrorDetails().errorCode() : e.getClass().getSimpleName();
            return new StreamReaders(streamArn, new Listing.NotListed("lambda:ListEventSourceMappings failed (" + code + ")"));
        }
        return new StreamReaders(streamArn, new Listing.Listed(readers));
    }

    static StreamReaders notListed(String streamArn, String reason) {
        return new StreamReaders(streamArn, new Listing.NotListed(reason));
    }

    /** The listed mappings that read (every one but a disabled one); 0 when nothing could be listed. */
    int existing() {
        return switch (listing) {
            case Listing.Listed listed -> (int) listed.readers().stream().filter(Reader::reads).count();
            case Listing.NotListed notListed -> 0;
        };
    }

    /** The readers a shard has once the stack is deployed in {@code mode}, besides those not visible to the listing. */
    int withMode(Mode mode) {
        return existing() + mode.readers;
    }

    /** The mode to choose: two on a stream without readers, one beside one reader; none fits beside two or more. */
    Mode mode() {
        return withMode(Mode.TWO) <= READERS_A_SHARD ? Mode.TWO : withMode(Mode.ONE) <= READERS_A_SHARD ? Mode.ONE : null;
    }

    /** Whether some mode keeps every shard within its two readers, as far as the listing sees. */
    boolean fits() {
        return listing instanceof Listing.NotListed || mode() != null;
    }

    /** What the listing found and the readers a shard would have with each mode, one line. */
    String summary() {
        return switch (listing) {
            case Listing.NotListed notListed -> "not listed: " + notListed.reason();
            case Listing.Listed listed -> String.format("%d listed (Lambda event source mappings): with the stack %d a shard with "
                    + "StreamReaders=two, %d with StreamReaders=one (a shard serves %d)", listed.readers().size(), withMode(Mode.TWO),
                    withMode(Mode.ONE), READERS_A_SHARD);
        };
    }

    /** The advice, one sentence. */
    String advice() {
        return switch (listing) {
            case Listing.NotListed notListed -> "readers not listed (" + notListed.reason() + "): if the stream already has a reader, "
                    + "deploy with StreamReaders=one (one consumer indexes and routes), else keep the default StreamReaders=two";
            case Listing.Listed listed -> {
                int existing = existing();
                Mode mode = mode();
                if (mode == Mode.TWO) {
                    yield "no reader of its own: keep the default StreamReaders=two (the indexer and the router, "
                            + withMode(Mode.TWO) + " readers a shard)";
                }
                if (mode == Mode.ONE) {
                    yield "deploy with StreamReaders=one: one consumer indexes and routes, " + withMode(Mode.ONE) + " readers a shard; "
                            + "StreamReaders=two would make " + withMode(Mode.TWO) + ", over the " + READERS_A_SHARD
                            + " a shard serves without throttling";
                }
                yield "the stream already has " + existing + " readers: even StreamReaders=one makes " + withMode(Mode.ONE)
                        + ", over the " + READERS_A_SHARD + " a shard serves without throttling (the stream throttles, seen as a growing "
                        + "iterator age); move a reader off the stream first (e.g. onto the stack's bus, where every change is an event)";
            }
        };
    }

    void print(PrintStream out) {
        switch (listing) {
            case Listing.NotListed notListed -> out.println("stream readers: not listed: " + notListed.reason());
            case Listing.Listed listed -> {
                out.printf("stream readers: %d listed (Lambda event source mappings of %s)%n", listed.readers().size(), streamArn);
                listed.readers().forEach(reader -> out.printf("  %s  %s  %s%n", reader.functionArn(), reader.state(), reader.uuid()));
                out.printf("  with the stack: %d readers a shard with StreamReaders=two, %d with StreamReaders=one (a shard serves %d)%n",
                        withMode(Mode.TWO), withMode(Mode.ONE), READERS_A_SHARD);
            }
        }
        out.println("  choose: " + advice());
        out.println("  not listed, count them in: " + String.join("; ", NOT_VISIBLE));
    }

    ObjectNode document() {
        ObjectNode node = Output.object();
        node.put("streamArn", streamArn);
        switch (listing) {
            case Listing.Listed listed -> {
                node.put("listed", true);
                ArrayNode readers = node.putArray("readers");
                listed.readers().forEach(r -> readers.addObject().put("uuid", r.uuid()).put("functionArn", r.functionArn()).put("state", r.state()));
                node.put("existing", existing()).put("withTwo", withMode(Mode.TWO)).put("withOne", withMode(Mode.ONE));
                Mode mode = mode();
                node.put("mode", mode == null ? null : mode.parameter);
            }
            case Listing.NotListed notListed -> node.put("listed", false).put("reason", notListed.reason()).putNull("mode");
        }
        node.put("fits", fits()).put("advice", advice());
        node.set("notVisible", PlanCommand.strings(NOT_VISIBLE));
        return node;
    }
}
