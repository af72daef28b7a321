package com.multikey.redrive;

import com.multikey.index.definition.IndexDefinitions;

import java.util.Map;
import java.util.Optional;

/**
 * Where redrive finds the queues, tables and functions: environment variables set in template.yaml (the
 * deployed function) or built from the command line's options.
 */
public record RedriveConfig(String appTable, String indexTable, String indexerQueue, String routerQueue, String deleteLayerQueue,
                            String routerFunction, String deleteLayerFunction, IndexDefinitions definitions,
                            Optional<OneReader> oneReader) {

    /**
     * The one-reader mode ({@code StreamReaders: one}): the indexer queue's records are the stream consumer's, its
     * checkpoints say which job finished which record, and the consumer function re-sends the events.
     */
    public record OneReader(String checkpointsTable, String consumerFunction) {
        public OneReader {
            required(checkpointsTable, "STREAM_CHECKPOINTS_TABLE");
            required(consumerFunction, "STREAM_CONSUMER_FUNCTION_NAME");
        }
    }

    public RedriveConfig(String appTable, String indexTable, String indexerQueue, String routerQueue, String deleteLayerQueue,
                         String routerFunction, String deleteLayerFunction, IndexDefinitions definitions) {
        this(appTable, indexTable, indexerQueue, routerQueue, deleteLayerQueue, routerFunction, deleteLayerFunction, definitions,
                Optional.empty());
    }

    /** With {@code STREAM_CHECKPOINTS_TABLE} set, the one-reader mode, whose consumer is {@code STREAM_CONSUMER_FUNCTION_NAME}. */
    public static RedriveConfig fromEnvironment(Map<String, String> env) {
        String checkpoints = env.get("STREAM_CHECKPOINTS_TABLE");
        Optional<OneReader> oneReader = checkpoints == null || checkpoints.isBlank() ? Optional.empty()
                : Optional.of(new OneReader(checkpoints, env.get("STREAM_CONSUMER_FUNCTION_NAME")));
        return new RedriveConfig(env.get("APP_TABLE_NAME"), env.get("INDEX_TABLE_NAME"), env.get("INDEXER_FAILURE_QUEUE"),
                env.get("ROUTER_FAILURE_QUEUE"), env.get("DELETE_LAYER_DEAD_LETTER_QUEUE"), env.get("ROUTER_FUNCTION_NAME"),
                env.get("DELETE_LAYER_FUNCTION_NAME"), IndexDefinitions.fromEnvironment(env), oneReader);
    }

    /** The queue (URL or name) of a kind. */
    public String queue(QueueKind kind) {
        return required(switch (kind) {
            case INDEXER -> indexerQueue;
            case ROUTER -> routerQueue;
            case DELETE_LAYER -> deleteLayerQueue;
        }, switch (kind) {
            case INDEXER -> "INDEXER_FAILURE_QUEUE";
            case ROUTER -> "ROUTER_FAILURE_QUEUE";
            case DELETE_LAYER -> "DELETE_LAYER_DEAD_LETTER_QUEUE";
        });
    }

    static String required(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is not set");
        }
        return value;
    }
}
