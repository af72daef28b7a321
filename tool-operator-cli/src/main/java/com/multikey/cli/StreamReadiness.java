package com.multikey.cli;

import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Whether a table's stream can feed the indexer, which needs both images of every change
 * ({@code NEW_AND_OLD_IMAGES}), and what to change when it cannot.
 */
sealed interface StreamReadiness {

    String BOTH_IMAGES = "NEW_AND_OLD_IMAGES";

    boolean ready();

    /** The stream's view type as DynamoDB names it, or null without a stream. */
    String viewType();

    /** What to run so that the stream can feed the indexer (empty when it can). */
    String change(String table);

    /** The stream carries both images. */
    record Ready(String streamArn) implements StreamReadiness {
        public boolean ready() {
            return true;
        }

        public String viewType() {
            return BOTH_IMAGES;
        }

        public String change(String table) {
            return "";
        }
    }

    /** No stream is enabled on the table. */
    record NoStream() implements StreamReadiness {
        public boolean ready() {
            return false;
        }

        public String viewType() {
            return null;
        }

        public String change(String table) {
            return "table " + table + " has no stream: enable one with both images (aws dynamodb update-table --table-name " + table
                    + " --stream-specification StreamEnabled=true,StreamViewType=" + BOTH_IMAGES + "), then pass its ARN to the stack";
        }
    }

    /** A stream without both images: its view type cannot be changed in place. */
    record WrongViewType(String viewType) implements StreamReadiness {
        public boolean ready() {
            return false;
        }

        public String change(String table) {
            return "the stream of table " + table + " carries " + viewType + ", and the indexer needs " + BOTH_IMAGES
                    + ": a view type cannot be changed in place; disable the stream (aws dynamodb update-table --table-name " + table
                    + " --stream-specification StreamEnabled=false) and enable it again with both images (aws dynamodb update-table"
                    + " --table-name " + table + " --stream-specification StreamEnabled=true,StreamViewType=" + BOTH_IMAGES
                    + "), which gives it a new ARN";
        }
    }

    static StreamReadiness of(TableDescription table) {
        StreamSpecification stream = table.streamSpecification();
        if (stream == null || !Boolean.TRUE.equals(stream.streamEnabled())) {
            return new NoStream();
        }
        String viewType = stream.streamViewTypeAsString();
        return BOTH_IMAGES.equals(viewType) ? new Ready(table.latestStreamArn()) : new WrongViewType(viewType);
    }
}
