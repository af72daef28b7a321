package com.multikey.emulator.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.services.secrets.LocalSecretsManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The template's secrets on this machine: generated as {@code GenerateSecretString} says into a file made once, kept
 * after, readable by its owner only, and answered by the local {@code GetSecretValue} endpoint as Secrets Manager answers.
 */
class TemplateSecretsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void create_generatesTheRepositoryTemplatesCursorKeys_once_readableByItsOwnerOnly(@TempDir Path dir) throws Exception {
        // when
        Map<String, Path> files = TemplateSecrets.create(SamTemplate.ofRepository(), dir.resolve("secrets"));
        String first = Files.readString(files.get("CursorKeySecret"));
        TemplateSecrets.create(SamTemplate.ofRepository(), dir.resolve("secrets"));

        // then: {"id":"1","key":<64 letters and digits>}, kept when made again
        JsonNode secret = JSON.readTree(first);
        assertThat(files).containsOnlyKeys("CursorKeySecret");
        assertThat(secret.get("id").asText()).isEqualTo("1");
        assertThat(secret.get("key").asText()).matches("[A-Za-z0-9]{64}");
        assertThat(Files.readString(files.get("CursorKeySecret"))).isEqualTo(first);
        assertThat(Files.getPosixFilePermissions(files.get("CursorKeySecret"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.list(dir.resolve("secrets")).toList()).containsExactly(files.get("CursorKeySecret"));
    }

    @Test
    void loadOrCreate_byStacksStartingAtOnce_givesEachTheSecretTheFileKeeps(@TempDir Path dir) throws Exception {
        Map<String, Object> properties = Map.of("GenerateSecretString", Map.of("SecretStringTemplate", "{\"id\":\"1\"}",
                "GenerateStringKey", "key", "PasswordLength", 64, "ExcludePunctuation", true));
        int stacks = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(stacks);
        try {
            for (int round = 0; round < 40; round++) {
                Path file = dir.resolve("round-" + round).resolve("CursorKeySecret.json");
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(stacks);
                java.util.List<java.util.concurrent.Future<String>> read = new java.util.ArrayList<>();
                for (int i = 0; i < stacks; i++) {
                    read.add(pool.submit(() -> {
                        start.await();
                        // what the stack's function gets from its first GetSecretValue
                        return Files.readString(TemplateSecrets.loadOrCreate(file, properties, "CursorKeySecret"));
                    }));
                }
                for (java.util.concurrent.Future<String> secret : read) {
                    secret.get();
                }
                String kept = Files.readString(file);
                for (java.util.concurrent.Future<String> secret : read) {
                    assertThat(secret.get()).as("round %d", round).isEqualTo(kept);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void secretString_followsGenerateSecretStringsSettings() {
        assertThat(TemplateSecrets.secretString(Map.of("GenerateSecretString", Map.of("PasswordLength", 40, "ExcludeUppercase", true,
                "ExcludeLowercase", true, "ExcludePunctuation", true)), "s")).matches("[0-9]{40}");
        assertThat(TemplateSecrets.secretString(Map.of("GenerateSecretString", Map.of("ExcludeNumbers", true,
                "ExcludeCharacters", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")), "s")).hasSize(32).matches("\\p{Punct}+");
        assertThat(TemplateSecrets.secretString(Map.of("SecretString", "given"), "s")).isEqualTo("given");
        assertThatThrownBy(() -> TemplateSecrets.secretString(Map.of(), "MySecret")).hasMessageContaining("MySecret");
    }

    @Test
    void getSecretValue_answersAsSecretsManagerDoes(@TempDir Path dir) throws Exception {
        try (LocalSecretsManager secrets = LocalSecretsManager.start()) {
            // given
            Path file = dir.resolve("s.json");
            Files.writeString(file, "{\"id\":\"1\",\"key\":\"k\"}");
            secrets.put("CursorKeySecret", file);

            // when
            HttpResponse<String> byName = call(secrets, "secretsmanager.GetSecretValue", "{\"SecretId\":\"CursorKeySecret\"}");
            HttpResponse<String> byArn = call(secrets, "secretsmanager.GetSecretValue",
                    "{\"SecretId\":\"" + LocalSecretsManager.arn("CursorKeySecret") + "\"}");
            HttpResponse<String> unknown = call(secrets, "secretsmanager.GetSecretValue", "{\"SecretId\":\"other\"}");
            HttpResponse<String> otherOperation = call(secrets, "secretsmanager.PutSecretValue", "{\"SecretId\":\"CursorKeySecret\"}");
            Files.writeString(file, "{\"id\":\"2\",\"key\":\"k\"}");
            HttpResponse<String> rotated = call(secrets, "secretsmanager.GetSecretValue", "{\"SecretId\":\"CursorKeySecret\"}");

            // then
            assertThat(byName.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(byName.body()).get("SecretString").asText()).isEqualTo("{\"id\":\"1\",\"key\":\"k\"}");
            assertThat(JSON.readTree(byName.body()).get("ARN").asText()).isEqualTo(LocalSecretsManager.arn("CursorKeySecret"));
            assertThat(JSON.readTree(byArn.body()).get("Name").asText()).isEqualTo("CursorKeySecret");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(unknown.body()).get("__type").asText()).isEqualTo("ResourceNotFoundException");
            assertThat(otherOperation.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(rotated.body()).get("SecretString").asText()).contains("\"2\"");
        }
    }

    private static HttpResponse<String> call(LocalSecretsManager secrets, String target, String body) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(HttpRequest.newBuilder(URI.create(secrets.endpoint() + "/")).header("X-Amz-Target", target)
                    .header("Content-Type", "application/x-amz-json-1.1").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }
}
