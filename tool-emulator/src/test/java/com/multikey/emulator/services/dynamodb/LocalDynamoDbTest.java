package com.multikey.emulator.services.dynamodb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LocalDynamoDbTest {

    @Test
    void clientsWithOtherKeysAndRegions_seeTheSameTables() {
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client();
             DynamoDbClient other = DynamoDbClient.builder().endpointOverride(local.endpoint()).region(Region.EU_WEST_1)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("other", "other")))
                     .httpClient(UrlConnectionHttpClient.create()).build()) {
            dynamoDb.createTable(b -> b.tableName("Shared").billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                    .keySchema(k -> k.attributeName("id").keyType("HASH")));

            assertThat(other.listTables().tableNames()).containsExactly("Shared");
        }
    }

    @Test
    void aJvmThatStartedAndClosedTheEngine_endsWithoutExitAndLeavesNothingInItsTemporaryDirectory(@TempDir Path dir) throws Exception {
        // given
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path output = dir.resolve("output.txt");

        // when
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), StartAndClose.class.getName())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();

        // then
        assertThat(jvm.waitFor(2, TimeUnit.MINUTES)).as("the JVM ended by itself").isTrue();
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(jvm.exitValue()).as(printed).isZero();
        assertThat(printed).contains("tables []");
        try (var left = Files.list(tmp)) {
            assertThat(left).as(printed).isEmpty();
        }
    }

    /** Starts the engine, answers one request and closes it; no System.exit: no thread may be left to keep the JVM up. */
    static final class StartAndClose {
        public static void main(String[] args) {
            try (LocalDynamoDb local = LocalDynamoDb.start(); var dynamoDb = local.client()) {
                System.out.println("tables " + dynamoDb.listTables().tableNames());
            }
        }
    }
}
