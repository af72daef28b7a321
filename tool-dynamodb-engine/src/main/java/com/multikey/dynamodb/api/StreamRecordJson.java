package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.stream.SequenceNumbers;
import com.multikey.dynamodb.stream.StreamLog;
import com.multikey.dynamodb.stream.StreamRecord;

/**
 * A stream record as GetRecords returns it. ApproximateCreationDateTime is in epoch seconds, rounded down, as
 * AWS writes it; images appear as the view type says; keys and numbers are canonical.
 */
final class StreamRecordJson {

    private StreamRecordJson() {
    }

    static ObjectNode write(StreamRecord record, StreamLog stream, String region) {
        StreamLog.ViewType viewType = stream.viewType();
        ObjectNode json = Json.object();
        json.put("eventID", stream.eventId(record));
        json.put("eventName", record.eventName().name());
        json.put("eventVersion", "1.1");
        json.put("eventSource", "aws:dynamodb");
        json.put("awsRegion", region);
        ObjectNode dynamodb = json.putObject("dynamodb");
        dynamodb.put("ApproximateCreationDateTime", record.created().getEpochSecond());
        dynamodb.set("Keys", Json.item(record.keys()));
        boolean newImage = viewType == StreamLog.ViewType.NEW_IMAGE || viewType == StreamLog.ViewType.NEW_AND_OLD_IMAGES;
        boolean oldImage = viewType == StreamLog.ViewType.OLD_IMAGE || viewType == StreamLog.ViewType.NEW_AND_OLD_IMAGES;
        if (newImage && record.newImage() != null) {
            dynamodb.set("NewImage", Json.item(record.newImage()));
        }
        if (oldImage && record.oldImage() != null) {
            dynamodb.set("OldImage", Json.item(record.oldImage()));
        }
        dynamodb.put("SequenceNumber", SequenceNumbers.format(record.sequence()));
        dynamodb.put("SizeBytes", record.sizeBytes());
        dynamodb.put("StreamViewType", viewType.name());
        if (record.byTimeToLive()) {
            json.putObject("userIdentity").put("PrincipalId", "dynamodb.amazonaws.com").put("Type", "Service");
        }
        return json;
    }
}
