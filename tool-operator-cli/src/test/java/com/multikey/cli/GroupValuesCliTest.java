package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code query --index --group} names a group of every type a group attribute can have, as the read API spells it. */
class GroupValuesCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    GroupValuesCliTest(LocalTables tables) {
        this.tables = tables;
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = tables.local().endpoint().toString();
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void queryIndex_withBooleanBinaryNumberAndTextGroups_readsThatGroup(@TempDir Path dir) throws Exception {
        // given: things grouped by a boolean, a binary, a number and a text attribute, backfilled into their index
        Path definitions = Files.writeString(dir.resolve("definitions.yaml"), """
                version: 1
                table: {partitionKey: {name: id, type: S}}
                indexes:
                  - name: by-every-type
                    covers: [{attribute: id, beginsWith: "thing#"}]
                    group: [flag, blob, size, label]
                    values: {attribute: color}
                """);
        SdkBytes blob = SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 0xff});
        for (int i = 0; i < 4; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("thing#" + i), "flag", AttributeValue.fromBool(i % 2 == 0),
                    "blob", AttributeValue.fromB(blob), "size", AttributeValue.fromN("1.5"), "label", AttributeValue.fromS("S:x"),
                    "color", AttributeValue.fromS("c" + i));
            tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(item));
        }
        assertThat(run("backfill", "--definitions", definitions.toString(), "--index", "by-every-type")).as(err.toString()).isZero();

        // when
        int status = run("query", "--definitions", definitions.toString(), "--index", "by-every-type", "--group", "BOOL:true",
                "--group", "B:AAEC/w==", "--group", "N:1.50", "--group", "S:S:x", "--output", "json");

        // then
        assertThat(status).as(err.toString()).isZero();
        JsonNode page = JSON.readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(page.path("group").toString()).isEqualTo("[true,\"AAEC/w==\",1.5,\"S:x\"]");
        assertThat(page.path("items").findValuesAsText("value")).isEqualTo(List.of("c0", "c2"));
    }

    @Test
    void queryIndex_aTypePrefixNotFollowedByItsType_isBadUsage_namingGroup() {
        assertThat(run("query", "--index", "custom_fields", "--project", "p", "--group", "BOOL:yes")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: --group: BOOL: is followed by true or false");
    }
}
