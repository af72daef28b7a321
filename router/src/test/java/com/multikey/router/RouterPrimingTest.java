package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.testkit.RecordingAwsEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The priming hook as Lambda runs it before a SnapStart snapshot: no credentials in the process environment
 * or the function's (SnapStart functions get theirs from the container credentials endpoint, here a
 * recorder), every AWS endpoint a recorder. Runs in its own surefire execution whose environment has no AWS
 * credentials (this module's pom, {@code priming-without-credentials}).
 */
@EnabledIfSystemProperty(named = "multikey.priming.withoutCredentials", matches = "true")
class RouterPrimingTest {

    private static final String FUNCTION = "RouterFunction";

    private final Map<String, String> properties = new HashMap<>();

    @BeforeEach
    void noCredentialsButTheContainerEndpoint() {
        assertThat(System.getenv("AWS_ACCESS_KEY_ID")).as("run in the execution without credentials in the environment").isNull();
        // no profile files either: the default chain's first source left is the container endpoint
        properties.put("aws.sharedCredentialsFile", "/nonexistent/credentials");
        properties.put("aws.configFile", "/nonexistent/config");
    }

    @AfterEach
    void restoreProperties() {
        properties.keySet().forEach(System::clearProperty);
    }

    @Test
    void priming_callsNoAwsApi_resolvesNoCredentials_andTheHandlerThenRoutesASampleBatch() {
        try (RecordingAwsEndpoint aws = RecordingAwsEndpoint.start(); LocalEventBridge bus = LocalEventBridge.start()) {
            // given
            properties.put("aws.containerCredentialsFullUri", aws.credentialsUri().toString());
            properties.forEach(System::setProperty);
            Map<String, String> names = new HashMap<>();
            SamTemplate template = SamTemplate.ofRepository();
            template.resources().keySet().forEach(id -> names.put(id, id));
            Map<String, String> env = new HashMap<>(TemplateEnvironment.of(template, FUNCTION, names));
            env.put("AWS_REGION", "us-east-1");
            env.put("AWS_ENDPOINT_URL", aws.endpoint().toString());

            // when
            new RouterPriming(env).beforeCheckpoint(null);

            // then
            assertThat(aws.requests()).as("requests during priming").isEmpty();
            assertThat(new RouterPriming(env).prime()).as("entries built for the sample").isEqualTo(3);

            // and when the restored function gets its first batch
            env.put("AWS_ENDPOINT_URL_EVENTBRIDGE", bus.endpoint().toString());
            RouterHandler handler = new RouterHandler(env);
            DynamodbEvent event = LambdaEvents.read(SamTemplate.findUp("sam").resolve("events").resolve("issue-insert.json"),
                    DynamodbEvent.class);
            StreamsEventResponse response = handler.handleRequest(event, LocalContext.of(FUNCTION));

            // then
            assertThat(response.getBatchItemFailures()).isEmpty();
            assertThat(bus.received()).extracting(LocalEventBridge.Received::detailType).containsExactly("Issue Created");
            assertThat(aws.requests()).as("credentials are resolved at the first call, from the container endpoint")
                    .containsOnly("GET " + RecordingAwsEndpoint.CREDENTIALS_PATH).isNotEmpty();
        }
    }
}
