package com.multikey.dynamodb.stream;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every stream of the engine by ARN, the disabled ones too until their records have aged out. */
public final class StreamRegistry {

    private final Map<String, StreamLog> streams = new LinkedHashMap<>();

    public synchronized void add(StreamLog stream) {
        streams.put(stream.arn(), stream);
    }

    public synchronized StreamLog get(String arn, Instant now) {
        prune(now);
        return streams.get(arn);
    }

    /** The streams in creation order, of one table when {@code tableName} is not null. */
    public synchronized List<StreamLog> list(String tableName, Instant now) {
        prune(now);
        List<StreamLog> list = new ArrayList<>();
        for (StreamLog stream : streams.values()) {
            if (tableName == null || stream.tableName().equals(tableName)) {
                list.add(stream);
            }
        }
        return list;
    }

    private void prune(Instant now) {
        streams.values().removeIf(s -> s.disabledAt() != null && s.disabledAt().plus(StreamLog.RETENTION).isBefore(now));
    }
}
