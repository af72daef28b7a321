package com.multikey.dynamodb.junit;

import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.server.EngineServer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * Runs test classes that use the extension (nested below, so that the build does not run them on their own) and checks
 * what they were given: one engine per class, shared by its tests, clean for the next class, stopped after its class.
 */
class DynamoDbEngineExtensionTest {

    /** The endpoints each class was given, by class name. */
    static final Map<String, List<URI>> ENDPOINTS = new ConcurrentHashMap<>();

    static void saw(Class<?> type, URI endpoint) {
        ENDPOINTS.computeIfAbsent(type.getSimpleName(), k -> new CopyOnWriteArrayList<>()).add(endpoint);
    }

    @Test
    void extension_givesEachClassAnEngineOfItsOwn_sharedByItsTests_andStopsItAfterTheClass() {
        // when
        TestExecutionSummary summary = run(FirstClass.class, SecondClass.class, PerClassLifecycle.class);

        // then
        assertThat(summary.getTotalFailureCount()).as(failures(summary)).isZero();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(6);
        assertThat(ENDPOINTS.get("FirstClass")).hasSize(2).containsOnly(ENDPOINTS.get("FirstClass").get(0));
        assertThat(ENDPOINTS.get("Inner")).hasSize(1).doesNotContainAnyElementsOf(ENDPOINTS.get("FirstClass"));
        assertThat(ENDPOINTS.get("SecondClass")).hasSize(1).doesNotContainAnyElementsOf(ENDPOINTS.get("FirstClass"));
        ENDPOINTS.values().stream().flatMap(List::stream).distinct()
                .forEach(endpoint -> assertThat(listening(endpoint)).as(endpoint + " stopped after its class").isFalse());
    }

    @ExtendWith(DynamoDbEngineExtension.class)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class FirstClass {

        @Test
        @Order(1)
        void createTable(DynamoDbClient dynamoDb, URI endpoint) {
            saw(FirstClass.class, endpoint);
            dynamoDb.createTable(t -> t.tableName("Orders").billingMode(BillingMode.PAY_PER_REQUEST)
                    .keySchema(k -> k.attributeName("id").keyType("HASH"))
                    .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S)));
        }

        @Test
        @Order(2)
        void theNextTestOfTheClass_seesTheTable(DynamoDbClient dynamoDb, URI endpoint) {
            saw(FirstClass.class, endpoint);
            assertThat(dynamoDb.listTables().tableNames()).containsExactly("Orders");
        }

        @Nested
        class Inner {
            @Test
            void aNestedClass_getsACleanEngine(DynamoDbClient dynamoDb, URI endpoint) {
                saw(Inner.class, endpoint);
                assertThat(dynamoDb.listTables().tableNames()).isEmpty();
            }
        }
    }

    @ExtendWith(DynamoDbEngineExtension.class)
    static class SecondClass {

        @Test
        void anotherClass_getsACleanEngine_andEveryKindOfParameter(DynamoDbClient dynamoDb, DynamoDbStreamsClient streams,
                                                                    EngineServer server, DynamoDbEngine engine, URI endpoint) {
            saw(SecondClass.class, endpoint);
            assertThat(dynamoDb.listTables().tableNames()).isEmpty();
            assertThat(streams.listStreams().streams()).isEmpty();
            assertThat(server.endpoint()).isEqualTo(endpoint);
            assertThat(server.engine()).isSameAs(engine);
        }
    }

    /** A class with one instance: the engine is given to its constructor, before any test, and to each test the same. */
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    static class PerClassLifecycle {

        static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

        @RegisterExtension
        static final DynamoDbEngineExtension ENGINE = DynamoDbEngineExtension.withClock(Clock.fixed(START, ZoneOffset.UTC));

        private final URI constructed;

        PerClassLifecycle(URI endpoint) {
            this.constructed = endpoint;
        }

        @Test
        void theConstructorsEngine_isTheTests(URI endpoint) {
            assertThat(endpoint).isEqualTo(constructed);
        }

        @Test
        void theEngine_runsOnTheGivenClock(DynamoDbClient dynamoDb) {
            dynamoDb.createTable(t -> t.tableName("Clocked").billingMode(BillingMode.PAY_PER_REQUEST)
                    .keySchema(k -> k.attributeName("id").keyType("HASH"))
                    .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S)));
            assertThat(dynamoDb.describeTable(d -> d.tableName("Clocked")).table().creationDateTime()).isEqualTo(START);
        }
    }

    private static TestExecutionSummary run(Class<?>... classes) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request().selectors(java.util.Arrays.stream(classes).map(c -> selectClass(c)).toList()).build(), listener);
        return listener.getSummary();
    }

    private static String failures(TestExecutionSummary summary) {
        StringWriter text = new StringWriter();
        summary.printFailuresTo(new PrintWriter(text), 20);
        return text.toString();
    }

    private static boolean listening(URI endpoint) {
        try (Socket socket = new Socket(endpoint.getHost(), endpoint.getPort())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
