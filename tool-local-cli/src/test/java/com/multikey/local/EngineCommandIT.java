package com.multikey.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code local.jar engine} in a process of its own, as a user runs it: it prints its endpoint and "ready", serves any
 * SDK client, stops cleanly on SIGTERM (Ctrl-C's signal's sibling), and with --data-dir its tables are there again after
 * the restart.
 */
class EngineCommandIT {

    @TempDir
    Path dir;

    @Test
    void engine_withADataDirectory_servesAndKeepsItsTablesAcrossARestart() throws Exception {
        Path data = dir.resolve("data");
        Running first = start("--port", "0", "--data-dir", data.toString());
        assertThat(first.lines()).anyMatch(line -> line.startsWith("data directory: " + data + " (0 changes replayed)"));
        try (DynamoDbClient client = client(first.endpoint())) {
            client.createTable(t -> t.tableName("Notes").billingMode(BillingMode.PAY_PER_REQUEST)
                    .keySchema(k -> k.attributeName("id").keyType("HASH"))
                    .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S)));
            client.putItem(p -> p.tableName("Notes").item(Map.of("id", AttributeValue.fromS("n1"), "text", AttributeValue.fromS("kept"))));
        }
        first.process().destroy(); // SIGTERM: the shutdown hook stops the server and closes the directory
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).as("stopped").isTrue();

        Running second = start("--port", "0", "--data-dir", data.toString());
        try (DynamoDbClient client = client(second.endpoint())) {
            assertThat(second.lines()).anyMatch(line -> line.startsWith("data directory: " + data + " (2 changes replayed)"));
            assertThat(client.getItem(g -> g.tableName("Notes").key(Map.of("id", AttributeValue.fromS("n1")))).item())
                    .containsEntry("text", AttributeValue.fromS("kept"));
        } finally {
            second.process().destroy();
            second.process().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void engine_withoutADataDirectory_saysItsTablesAreInMemory_andStopsAfterSeconds() throws Exception {
        Running running = start("--port", "0", "--seconds", "1");
        assertThat(running.lines()).contains("tables: in memory only (pass --data-dir DIR to keep them across restarts)");
        assertThat(running.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(running.process().exitValue()).isZero();
    }

    @Test
    void engine_whenTheDataDirectoryIsDamaged_exitsThree_namingTheFile() throws Exception {
        Path data = Files.createDirectories(dir.resolve("damaged"));
        Files.writeString(data.resolve("engine.log"), "not a log");
        Process process = builder("--port", "0", "--data-dir", data.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isEqualTo(3);
        assertThat(output).contains(data.resolve("engine.log").toString(), "damaged");
    }

    private record Running(Process process, URI endpoint, List<String> lines) {
    }

    private Running start(String... args) throws IOException {
        Process process = builder(args).redirectError(dir.resolve("engine-errors.txt").toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        URI endpoint = null;
        for (String line = out.readLine(); line != null && !line.equals("ready"); line = out.readLine()) {
            lines.add(line);
            if (line.startsWith("endpoint ")) {
                endpoint = URI.create(line.substring("endpoint ".length()));
            }
        }
        assertThat(endpoint).as("the engine's output: %s; errors: %s", lines, Files.readString(dir.resolve("engine-errors.txt"))).isNotNull();
        return new Running(process, endpoint, lines);
    }

    private ProcessBuilder builder(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LocalMain.class.getName(), "engine"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(dir.toFile());
    }

    private static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "thing")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }
}
