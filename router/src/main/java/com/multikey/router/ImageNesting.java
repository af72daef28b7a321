package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * The nesting of a stream record's images, measured before they are converted: DynamoDB stores at most 32
 * levels of nested attributes (DynamoDB quotas, "Nested attribute depth"), so a deeper image did not come
 * from DynamoDB, and converting it recursively could overflow the stack. Such a record is routed without
 * its images.
 */
final class ImageNesting {

    /** DynamoDB quotas: "DynamoDB supports nested attributes up to 32 levels deep." */
    static final int DYNAMODB_MAX_NESTING = 32;

    private ImageNesting() {
    }

    /** Whether either image nests deeper than DynamoDB allows; measured without recursion. */
    static boolean tooDeep(DynamodbStreamRecord record) {
        StreamRecord stream = record == null ? null : record.getDynamodb();
        return stream != null && (depth(stream.getOldImage()) > DYNAMODB_MAX_NESTING || depth(stream.getNewImage()) > DYNAMODB_MAX_NESTING);
    }

    /** The record without its images (a copy; the record itself is left as it is). */
    static DynamodbStreamRecord withoutImages(DynamodbStreamRecord record) {
        DynamodbStreamRecord copy = record.clone();
        StreamRecord stream = record.getDynamodb().clone();
        stream.setOldImage(null);
        stream.setNewImage(null);
        copy.setDynamodb(stream);
        return copy;
    }

    /** Levels of nesting below an image's attributes: a scalar is 0, a map, list or set one more than its deepest member. */
    static int depth(Map<String, AttributeValue> image) {
        if (image == null) {
            return 0;
        }
        record Level(AttributeValue value, int depth) {
        }
        Deque<Level> pending = new ArrayDeque<>();
        image.values().forEach(value -> pending.push(new Level(value, 0)));
        int deepest = 0;
        while (!pending.isEmpty()) {
            Level level = pending.pop();
            AttributeValue value = level.value();
            if (value == null) {
                continue;
            }
            if (value.getM() != null) {
                deepest = Math.max(deepest, level.depth() + 1);
                value.getM().values().forEach(member -> pending.push(new Level(member, level.depth() + 1)));
            } else if (value.getL() != null) {
                deepest = Math.max(deepest, level.depth() + 1);
                value.getL().forEach(member -> pending.push(new Level(member, level.depth() + 1)));
            } else if (value.getSS() != null || value.getNS() != null || value.getBS() != null) {
                deepest = Math.max(deepest, level.depth() + 1);
            }
        }
        return deepest;
    }
}
