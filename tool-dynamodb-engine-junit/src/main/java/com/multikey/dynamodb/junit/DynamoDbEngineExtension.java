package com.multikey.dynamodb.junit;

import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.server.EngineServer;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.net.URI;
import java.time.Clock;
import java.util.Set;

/**
 * Gives a test class its own DynamoDB engine, in-process on a free port of the loopback interface, started on first use
 * and stopped (its tables gone) when the class's tests are done; a {@code @Nested} class gets one of its own.
 *
 * <pre>{@code
 * @ExtendWith(DynamoDbEngineExtension.class)
 * class OrdersTest {
 *     @Test
 *     void putItem_isReadBack(DynamoDbClient dynamoDb) { ... }
 * }
 * }</pre>
 *
 * Parameters of test, lifecycle and constructor methods it resolves: {@link DynamoDbClient} and
 * {@link DynamoDbStreamsClient} (region {@code us-east-1}, any credentials), {@link URI} (the endpoint, for clients
 * of your own: the engine takes any credentials and region), {@link EngineServer} and {@link DynamoDbEngine} (for
 * faults on demand and in-process calls). With {@code @RegisterExtension} an instance can be given a clock.
 */
public final class DynamoDbEngineExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DynamoDbEngineExtension.class);
    private static final Set<Class<?>> RESOLVED = Set.of(DynamoDbClient.class, DynamoDbStreamsClient.class, URI.class,
            EngineServer.class, DynamoDbEngine.class);

    private final Clock clock;

    /** The engine on the system clock. */
    public DynamoDbEngineExtension() {
        this(Clock.systemUTC());
    }

    private DynamoDbEngineExtension(Clock clock) {
        this.clock = clock;
    }

    /** The engine on this clock (for TTL and stream timestamps under a test's control), with {@code @RegisterExtension}. */
    public static DynamoDbEngineExtension withClock(Clock clock) {
        return new DynamoDbEngineExtension(clock);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return RESOLVED.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Running running = running(context);
        Class<?> type = parameter.getParameter().getType();
        if (type == DynamoDbClient.class) {
            return running.dynamoDb();
        } else if (type == DynamoDbStreamsClient.class) {
            return running.streams();
        } else if (type == URI.class) {
            return running.server().endpoint();
        } else if (type == EngineServer.class) {
            return running.server();
        } else if (type == DynamoDbEngine.class) {
            return running.server().engine();
        }
        throw new ParameterResolutionException("DynamoDbEngineExtension does not give a " + type.getName());
    }

    /** The engine of the test's class, started on first use; kept in the class's store, which closes it after the class. */
    private Running running(ExtensionContext context) {
        ExtensionContext owner = context;
        while (owner.getTestMethod().isPresent() && owner.getParent().isPresent()) {
            owner = owner.getParent().get();
        }
        // keyed by the class's id: a nested class's store would otherwise find its enclosing class's engine
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent("engine " + owner.getUniqueId(), key -> Running.start(clock), Running.class);
    }

    /** One class's engine and the clients given to its tests; closed by JUnit with the class's store. */
    record Running(EngineServer server, DynamoDbClient dynamoDb, DynamoDbStreamsClient streams) implements AutoCloseable {

        static Running start(Clock clock) {
            EngineServer server = EngineServer.start(new DynamoDbEngine(clock, "us-east-1")
                    .startTimeToLiveSweeper(EngineServer.DEFAULT_TTL_INTERVAL), 0);
            var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("engine", "engine"));
            DynamoDbClient dynamoDb = DynamoDbClient.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                    .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create()).build();
            DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                    .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create()).build();
            return new Running(server, dynamoDb, streams);
        }

        @Override
        public void close() {
            dynamoDb.close();
            streams.close();
            server.close();
        }
    }
}
