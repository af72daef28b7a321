package com.multikey.router;

import com.multikey.common.ChangeRecord;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.List;

/** What the router's tests share besides the stream records of {@link Records}. */
final class RouterFixtures {

    static final String TABLE_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/AppTable";

    private RouterFixtures() {
    }

    /** The record as the router reads it: through the Lambda runtime's event reader, then {@link ChangeRecord#from}. */
    static ChangeRecord changeRecord(Record record) {
        return ChangeRecord.from(Records.event(List.of(record)).getRecords().get(0));
    }
}
