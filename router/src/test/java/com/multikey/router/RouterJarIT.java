package com.multikey.router;

import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router's deployable jar on its own: what is and is not inside, every class it can reach inside, and
 * the handler built from the jar alone routing the sample stream events to a local PutEvents endpoint.
 */
class RouterJarIT {

    /**
     * SnakeYAML's dumping settings: the definitions reader's node graph uses only its FlowStyle and ScalarStyle enums, and
     * its own code (for dumping, left out of the jar) never runs.
     */
    private static final String SNAKEYAML_DUMPER_OPTIONS = "org/yaml/snakeyaml/DumperOptions";

    private static final String FUNCTION = "RouterFunction";
    private static final String DYNAMODB = "software/amazon/awssdk/services/dynamodb/";
    private static final String EVENTBRIDGE = "software/amazon/awssdk/services/eventbridge/";
    private static final String EVENTS = "com/amazonaws/services/lambda/runtime/events/";
    private static final SamTemplate TEMPLATE = SamTemplate.ofRepository();
    private static DeployableJar jar;

    @BeforeAll
    static void open() {
        jar = DeployableJar.of(TEMPLATE, FUNCTION);
    }

    @AfterAll
    static void close() throws Exception {
        jar.close();
    }

    @Test
    void jar_isAtMostTenMegabytes_withTheHandlerAndOnlyTheClientsItUses() {
        assertThat(jar.sizeBytes()).as("%s size", jar).isLessThanOrEqualTo(10_000_000L);
        assertThat(jar.hasClass(jar.handlerClassName())).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.eventbridge.DefaultEventBridgeClient")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.AttributeValue")).isTrue();
        assertThat(jar.hasClass("org.joda.time.DateTime")).as("the runtime's event reader loads it").isTrue();
        assertThat(jar.entries()).as("no other HTTP client, no DynamoDB client, no paginators or async clients")
                .noneMatch(name -> name.startsWith("software/amazon/awssdk/http/apache/")
                        || name.startsWith("software/amazon/awssdk/http/nio/netty/") || name.startsWith("io/netty/")
                        || name.startsWith(DYNAMODB) && name.endsWith(".class") && !name.startsWith(DYNAMODB + "model/")
                        || name.startsWith(EVENTBRIDGE + "paginators/") || name.startsWith(EVENTBRIDGE + "DefaultEventBridgeAsyncClient"));
        assertThat(jar.classesNewerThan(65)).as("classes the java21 runtime cannot load").isEmpty();
        assertThat(SamTemplate.map(SamTemplate.map(TEMPLATE.root().get("Globals"), "Globals").get("Function"), "Function")
                .get("Runtime")).isEqualTo("java21");
    }

    @Test
    void everyClassTheRouterCanReach_isInTheJar() {
        Map<String, String> missing = jar.missingReachableClasses(List.of(DYNAMODB, EVENTBRIDGE, EVENTS, "org/yaml/snakeyaml/"),
                name -> name.startsWith("org/yaml/snakeyaml/") || name.startsWith(DYNAMODB) || name.startsWith(EVENTBRIDGE + "model/") && !name.endsWith("Exception")
                        || name.startsWith(EVENTBRIDGE + "transform/") || name.startsWith(EVENTS),
                name -> false,
                // ClientFactory.dynamoDb() names the DynamoDB client; the router never calls it
                Set.of(SNAKEYAML_DUMPER_OPTIONS, "com/multikey/common/ClientFactory", EVENTBRIDGE + "EventBridgeClient", EVENTBRIDGE + "DefaultEventBridgeClient"));

        assertThat(missing).as("missing class -> a class naming it").isEmpty();
    }

    @Test
    void everyClassTheKinesisRouterCanReach_isInTheJar() throws Exception {
        // given: StreamSource kinesis deploys the same jar with the Kinesis router's handler
        try (DeployableJar kinesis = DeployableJar.of(TEMPLATE.withParameterOverrides(Map.of("StreamSource", "kinesis")), FUNCTION)) {
            // when
            Map<String, String> missing = kinesis.missingReachableClasses(List.of(DYNAMODB, EVENTBRIDGE, EVENTS, "org/yaml/snakeyaml/"),
                    name -> name.startsWith("org/yaml/snakeyaml/") || name.startsWith(DYNAMODB) || name.startsWith(EVENTBRIDGE + "model/") && !name.endsWith("Exception")
                            || name.startsWith(EVENTBRIDGE + "transform/") || name.startsWith(EVENTS),
                    name -> false,
                    Set.of(SNAKEYAML_DUMPER_OPTIONS, "com/multikey/common/ClientFactory", EVENTBRIDGE + "EventBridgeClient", EVENTBRIDGE + "DefaultEventBridgeClient"));

            // then
            assertThat(kinesis.handlerClassName()).isEqualTo(KinesisRouterHandler.class.getName());
            assertThat(missing).as("missing class -> a class naming it").isEmpty();
        }
    }

    @Test
    void handler_fromTheJarAlone_readsAYamlDefinitionsFileNamedByIndexDefinitions() throws Throwable {
        try (LocalEventBridge bus = LocalEventBridge.start()) {
            // given: the single-table example's definitions, as YAML, and a layer record of its shape
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            Map<String, String> env = new HashMap<>(TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names, Map.of("EVENTBRIDGE", bus.endpoint())));
            env.put("INDEX_DEFINITIONS", SingleTableRouterTest.EXAMPLE.resolve("index-definitions.yaml").toAbsolutePath().toString());

            // when
            Object handler = jar.newHandler(env);
            Object response = jar.invoke(handler, SamTemplate.findUp("sam").resolve("events").resolve("issue-insert.json"), LocalContext.of(FUNCTION));

            // then: the handler started with the file's definitions (the sample's key is not the example's, so its type is Item)
            assertThat((List<?>) response.getClass().getMethod("getBatchItemFailures").invoke(response)).isEmpty();
            assertThat(bus.received()).extracting(LocalEventBridge.Received::detailType).containsExactly("Item Created");
        }
    }

    @Test
    void handler_fromTheJarAlone_routesTheSampleEvents() throws Throwable {
        assertThat(jar.handlerClass().getConstructor()).as("no-arg constructor for Lambda").isNotNull();
        try (LocalEventBridge bus = LocalEventBridge.start()) {
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            assertThat(TemplateEnvironment.of(TEMPLATE, FUNCTION, names)).isNotEmpty();
            Object handler = jar.newHandler(TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names, Map.of("EVENTBRIDGE", bus.endpoint())));
            Path events = SamTemplate.findUp("sam").resolve("events");

            for (String sample : List.of("issue-insert.json", "issue-update.json", "issue-remove.json")) {
                Object response = jar.invoke(handler, events.resolve(sample), LocalContext.of(FUNCTION));

                assertThat(response.getClass().getClassLoader()).isSameAs(jar.loader());
                assertThat((List<?>) response.getClass().getMethod("getBatchItemFailures").invoke(response)).as(sample).isEmpty();
            }
            assertThat(bus.received()).extracting(LocalEventBridge.Received::detailType)
                    .containsExactly("Issue Created", "Issue Updated", "Issue Removed");
        }
    }
}
