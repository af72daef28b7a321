package com.multikey.local;

import com.multikey.clikit.Failure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The DynamoDB JSON item files {@code --load} reads: scan output, one item a line, S3 export lines, every type. */
class ItemFileTest {

    @TempDir
    Path dir;

    private static final Map<String, AttributeValue> EVERY_TYPE = Map.of("pk", AttributeValue.fromS("a"), "n", AttributeValue.fromN("1.50"),
            "b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1, 2})), "t", AttributeValue.fromBool(true),
            "z", AttributeValue.fromNul(true), "ss", AttributeValue.fromSs(List.of("x", "y")), "ns", AttributeValue.fromNs(List.of("1", "2")),
            "l", AttributeValue.fromL(List.of(AttributeValue.fromS("e"), AttributeValue.fromN("3"))),
            "m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"))));

    private static final String EVERY_TYPE_JSON = "{\"pk\": {\"S\": \"a\"}, \"n\": {\"N\": \"1.50\"}, \"b\": {\"B\": \"AQI=\"}, \"t\": {\"BOOL\": true},"
            + " \"z\": {\"NULL\": true}, \"ss\": {\"SS\": [\"x\", \"y\"]}, \"ns\": {\"NS\": [\"1\", \"2\"]},"
            + " \"l\": {\"L\": [{\"S\": \"e\"}, {\"N\": \"3\"}]}, \"m\": {\"M\": {\"k\": {\"S\": \"v\"}}}}";

    @Test
    void read_theOutputOfAwsDynamodbScan() throws Exception {
        Path file = Files.writeString(dir.resolve("scan.json"), "{\"Items\": [" + EVERY_TYPE_JSON + ", {\"pk\": {\"S\": \"b\"}}],"
                + " \"Count\": 2, \"ScannedCount\": 2, \"NextToken\": \"eyJ9\"}");

        assertThat(ItemFile.read(file)).containsExactly(EVERY_TYPE, Map.of("pk", AttributeValue.fromS("b")));
    }

    @Test
    void read_oneItemALine_plainOrAsADynamoDbExportWritesIt_skippingBlankLines() throws Exception {
        Path file = Files.writeString(dir.resolve("items.json"), EVERY_TYPE_JSON + "\n\n{\"Item\": {\"pk\": {\"S\": \"b\"}}}\n");

        assertThat(ItemFile.read(file)).containsExactly(EVERY_TYPE, Map.of("pk", AttributeValue.fromS("b")));
    }

    @Test
    void read_aLineThatIsNotJson_isBadUsage_namingTheLine() throws Exception {
        Path file = Files.writeString(dir.resolve("items.json"), "{\"pk\": {\"S\": \"a\"}}\n{oops\n");

        Failure failure = catchThrowableOfType(Failure.class, () -> ItemFile.read(file));

        assertThat(failure.exitCode()).isEqualTo(LocalMain.USAGE);
        assertThat(failure.getMessage()).startsWith(file + " line 2 is not JSON");
    }

    @Test
    void read_anItemThatIsNotDynamoDbJson_isBadUsage_withAnExample() throws Exception {
        Path file = Files.writeString(dir.resolve("items.json"), "{\"pk\": {\"Q\": \"a\"}}\n");

        Failure failure = catchThrowableOfType(Failure.class, () -> ItemFile.read(file));

        assertThat(failure.exitCode()).isEqualTo(LocalMain.USAGE);
        assertThat(failure.getMessage()).startsWith(file + ": an item is not DynamoDB JSON").contains("{\"pk\": {\"S\": \"a\"}");
    }
}
