package com.multikey.dynamodb.durable;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;

import static com.multikey.dynamodb.durable.EngineRequests.ok;
import static org.assertj.core.api.Assertions.assertThat;

/** PartiQL's writes in a data directory: logged as the JSON operations' are, and replayed to the same tables. */
class DurablePartiqlTest {

    private static final String TABLE = "{\"TableName\":\"issues\",\"BillingMode\":\"PAY_PER_REQUEST\","
            + "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
            + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}]}";

    @TempDir
    Path dir;

    private final DurableEnginePropertiesTest.TestClock clock = new DurableEnginePropertiesTest.TestClock(Instant.parse("2026-06-01T00:00:00Z"));

    @Test
    void open_whenRestarted_keepsWhatStatementsAndTransactionsWrote() {
        // given
        try (DurableEngine engine = DurableEngine.open(dir, clock, "us-east-1")) {
            ok(engine, "CreateTable", TABLE);
            ok(engine, "ExecuteStatement", "{\"Statement\":\"INSERT INTO issues VALUE {'id': ?, 'n': 1}\",\"Parameters\":[{\"S\":\"a\"}]}");
            ok(engine, "ExecuteStatement", "{\"Statement\":\"UPDATE issues SET n = n + 1 WHERE id = 'a'\"}");
            ok(engine, "ExecuteTransaction", "{\"TransactStatements\":[{\"Statement\":\"INSERT INTO issues VALUE {'id': 'b'}\"},"
                    + "{\"Statement\":\"UPDATE issues SET n = n + 1 WHERE id = 'a'\"}]}");
            ok(engine, "BatchExecuteStatement", "{\"Statements\":[{\"Statement\":\"DELETE FROM issues WHERE id = 'b'\"}]}");
        }

        // when
        try (DurableEngine engine = DurableEngine.open(dir, clock, "us-east-1")) {
            // then
            JsonNode items = ok(engine, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM issues\"}").get("Items");
            assertThat(items.toString()).isEqualTo("[{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"3\"}}]");
        }
    }
}
