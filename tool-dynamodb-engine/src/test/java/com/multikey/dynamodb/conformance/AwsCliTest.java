package com.multikey.dynamodb.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The AWS CLI drives the engine as a user would (https://docs.aws.amazon.com/cli/latest/reference/dynamodb/):
 * the README's put-item and query, a write of every type read back equal, a paginated Query and Scan, and a
 * transaction that fails with its reasons. Skipped when {@code aws} is not on the PATH.
 */
@EngineOnly("the CLI pointed at the engine with placeholder credentials")
class AwsCliTest extends EngineTestSupport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Result(int exit, String out, String err) {
        JsonNode json() throws IOException {
            return JSON.readTree(out);
        }
    }

    private boolean version1;

    @BeforeAll
    void cliPresent() throws InterruptedException {
        String version;
        try {
            Process process = new ProcessBuilder("aws", "--version").redirectErrorStream(true).start();
            version = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            version = "";
        }
        assumeTrue(version.startsWith("aws-cli/"), "the AWS CLI is not installed");
        version1 = version.startsWith("aws-cli/1.");
    }

    /** CLI v2 reads a blob parameter as base64; v1 sends its text as the bytes. */
    private JsonNode binary(String base64) {
        String sent = version1 ? java.util.Base64.getEncoder().encodeToString(base64.getBytes(StandardCharsets.UTF_8)) : base64;
        return JSON.createObjectNode().put("B", sent);
    }

    private Result aws(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("aws"));
        command.addAll(List.of(args));
        command.addAll(List.of("--endpoint-url", server.endpoint().toString(), "--output", "json"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("AWS_ACCESS_KEY_ID", "local");
        builder.environment().put("AWS_SECRET_ACCESS_KEY", "local");
        builder.environment().put("AWS_DEFAULT_REGION", "us-east-1");
        builder.environment().put("AWS_PAGER", "");
        builder.environment().put("AWS_CONFIG_FILE", "/dev/null");
        builder.environment().put("AWS_SHARED_CREDENTIALS_FILE", "/dev/null");
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), out, err);
    }

    @Test
    void readmeCommands_everyTypeReadBack_paginationAndTransactionReasons() throws Exception {
        Result created = aws("dynamodb", "create-table", "--table-name", "CliTable", "--billing-mode", "PAY_PER_REQUEST",
                "--attribute-definitions", "AttributeName=pk,AttributeType=S", "AttributeName=sk,AttributeType=N",
                "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE");
        assertThat(created.exit()).as(created.err()).isZero();

        String item = "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"0\"},\"n\":{\"N\":\"-1.50\"},\"b\":{\"B\":\"AAEC\"},\"t\":{\"BOOL\":true},"
                + "\"z\":{\"NULL\":true},\"l\":{\"L\":[{\"S\":\"x\"}]},\"m\":{\"M\":{\"k\":{\"SS\":[\"a\",\"b\"]}}},"
                + "\"ns\":{\"NS\":[\"3\",\"1\"]},\"bs\":{\"BS\":[\"AQ==\"]},\"e\":{\"S\":\"\"}}";
        assertThat(aws("dynamodb", "put-item", "--table-name", "CliTable", "--item", item).exit()).isZero();
        JsonNode got = aws("dynamodb", "get-item", "--table-name", "CliTable", "--key", "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"0\"}}").json().get("Item");
        JsonNode expected = JSON.readTree(item);
        ((com.fasterxml.jackson.databind.node.ObjectNode) expected).putObject("n").put("N", "-1.5");
        assertThat(got.get("n")).isEqualTo(expected.get("n"));
        assertThat(got.get("b")).isEqualTo(binary("AAEC"));
        assertThat(got.get("m")).isEqualTo(expected.get("m"));
        assertThat(got.get("bs").get("BS").get(0).asText()).isEqualTo(binary("AQ==").get("B").asText());
        assertThat(got.get("ns").get("NS")).hasSize(2);
        assertThat(got.size()).isEqualTo(expected.size());

        for (int i = 1; i <= 7; i++) {
            assertThat(aws("dynamodb", "put-item", "--table-name", "CliTable", "--item",
                    "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"" + i + "\"}}").exit()).isZero();
        }
        JsonNode query = aws("dynamodb", "query", "--table-name", "CliTable", "--key-condition-expression", "pk = :p",
                "--expression-attribute-values", "{\":p\":{\"S\":\"p\"}}", "--page-size", "3").json();
        assertThat(query.get("Count").asInt()).isEqualTo(8);
        JsonNode scan = aws("dynamodb", "scan", "--table-name", "CliTable", "--page-size", "2").json();
        assertThat(scan.get("Items").size()).isEqualTo(8);

        Result transaction = aws("dynamodb", "transact-write-items", "--transact-items",
                "[{\"ConditionCheck\":{\"TableName\":\"CliTable\",\"Key\":{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"1\"}},"
                        + "\"ConditionExpression\":\"attribute_not_exists(pk)\"}},"
                        + "{\"Put\":{\"TableName\":\"CliTable\",\"Item\":{\"pk\":{\"S\":\"q\"},\"sk\":{\"N\":\"1\"}}}}]");
        assertThat(transaction.exit()).isNotZero();
        assertThat(transaction.err()).contains("TransactionCanceledException").contains("[ConditionalCheckFailed, None]");
    }
}
