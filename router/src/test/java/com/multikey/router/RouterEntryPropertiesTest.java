package com.multikey.router;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.bus.PutEventsValidation;
import com.multikey.index.definition.IndexDefinitions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For any DynamoDB item — every attribute type, the whole number range (38 significant digits, 1E-130 to
 * 9.99…E+125, negatives) and sizes up to the item limit — the router's entry is one PutEvents accepts.
 */
class RouterEntryPropertiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PutEventsValidation VALIDATION = new PutEventsValidation(PutEventsValidation.DEFAULT_MAX_ENTRY_BYTES);
    private static final ChangeEventFactory FACTORY = new ChangeEventFactory(new RouterConfig("app-events", "multikey.app-table",
            RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true, RouterConfig.DEFAULT_MAX_ENTRY_BYTES));
    private static LocalEventBridge bus;
    private static EventBridgePublisher publisher;

    @BeforeContainer
    static void start() {
        bus = LocalEventBridge.start();
        publisher = new EventBridgePublisher(EventBridgeClient.builder().region(Region.US_EAST_1).endpointOverride(bus.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(com.multikey.common.ClientFactory.httpClient()).build());
    }

    @AfterContainer
    static void stop() {
        bus.close();
    }

    private static ChangeEvent eventOf(String id, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        ChangeKind kind = before == null ? ChangeKind.INSERT : after == null ? ChangeKind.REMOVE : ChangeKind.MODIFY;
        return FACTORY.toEvent(new ChangeRecord("event-1", kind, "000000000000000000001", Map.of("id", AttributeValue.fromS(id)),
                before, after, null, Instant.ofEpochSecond(1_793_577_600L)));
    }

    /** The entry as the SDK puts it on the wire (Time in epoch seconds). */
    private static ObjectNode wire(ChangeEvent event) {
        ObjectNode entry = JSON.createObjectNode().put("Source", event.source()).put("DetailType", event.detailType())
                .put("Detail", event.detail()).put("EventBusName", "app-events");
        event.time().ifPresent(t -> entry.put("Time", t.getEpochSecond()));
        event.resources().forEach(entry.putArray("Resources")::add);
        return entry;
    }

    @Property(tries = 300)
    void toEvent_isAcceptedByPutEventsValidation(@ForAll("ids") String id, @ForAll("items") Map<String, AttributeValue> before,
                                                 @ForAll("items") Map<String, AttributeValue> after) {
        for (ChangeEvent event : List.of(eventOf(id, null, after), eventOf(id, before, after), eventOf(id, before, null))) {
            ObjectNode entry = wire(event);
            ObjectNode request = JSON.createObjectNode();
            request.putArray("Entries").add(entry);

            assertThat(VALIDATION.callRefusal(request)).as(event.detailType()).isEmpty();
            assertThat(VALIDATION.entryRefusal(entry)).as(event.detailType()).isEmpty();
            event.withoutImages().ifPresent(fallback -> assertThat(VALIDATION.entryRefusal(wire(fallback))).isEmpty());
        }
    }

    @Property(tries = 40)
    void toEvent_isAcceptedByTheLocalEndpointOverHttp(@ForAll("ids") String id, @ForAll("items") Map<String, AttributeValue> after) {
        ChangeEvent event = eventOf(id, null, after);

        List<EventPublisher.EntryResult> results = publisher.publish(List.of(event.toEntry("app-events")),
                AwsRequestOverrideConfiguration.builder().build());

        assertThat(results).containsExactly(EventPublisher.EntryResult.ACCEPTED);
    }

    @Provide
    Arbitrary<String> ids() {
        Arbitrary<String> prefixes = Arbitraries.oneOf(Arbitraries.of("issue", "layer", "custom-field", ""),
                Arbitraries.strings().withCharRange('a', 'z').withChars('-', '_', '.').ofMinLength(1).ofMaxLength(300));
        return Combinators.combine(prefixes, Arbitraries.of("#", "", "#x#"), texts(200).filter(s -> !s.isEmpty()))
                .as((prefix, separator, rest) -> prefix + separator + rest).filter(id -> id.length() <= 1024);
    }

    @Provide
    Arbitrary<Map<String, AttributeValue>> items() {
        return Arbitraries.maps(texts(40).filter(s -> !s.isEmpty()), values(3)).ofMaxSize(12)
                .flatMap(map -> Arbitraries.integers().between(0, 9).map(big -> {
                    var item = new java.util.HashMap<>(map);
                    if (big == 0) {
                        // now and then an item near DynamoDB's 400 KB limit
                        item.put("large", AttributeValue.fromS("z".repeat(390_000)));
                    }
                    return Map.copyOf(item);
                }));
    }

    private static Arbitrary<AttributeValue> values(int depth) {
        Arbitrary<AttributeValue> scalars = Arbitraries.oneOf(
                texts(100).map(AttributeValue::fromS),
                numbers().map(AttributeValue::fromN),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(64).map(b -> AttributeValue.fromB(SdkBytes.fromByteArray(b))),
                Arbitraries.of(true, false).map(AttributeValue::fromBool),
                Arbitraries.just(AttributeValue.fromNul(true)),
                texts(20).set().ofMinSize(1).ofMaxSize(5).map(s -> AttributeValue.fromSs(List.copyOf(s))),
                numbers().set().ofMinSize(1).ofMaxSize(5).map(s -> AttributeValue.fromNs(List.copyOf(s))),
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(8).set().ofMinSize(1).ofMaxSize(3)
                        .map(s -> AttributeValue.fromBs(s.stream().map(SdkBytes::fromByteArray).toList())));
        if (depth == 0) {
            return scalars;
        }
        Arbitrary<AttributeValue> lists = Arbitraries.lazy(() -> values(depth - 1)).list().ofMaxSize(4).map(AttributeValue::fromL);
        Arbitrary<AttributeValue> maps = Arbitraries.maps(texts(10), Arbitraries.lazy(() -> values(depth - 1))).ofMaxSize(4).map(AttributeValue::fromM);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, scalars), net.jqwik.api.Tuple.of(1, lists), net.jqwik.api.Tuple.of(1, maps));
    }

    /** DynamoDB's number range: up to 38 significant digits, magnitudes 1E-130 to 9.99…E+125, negatives and zero, in plain and exponent form. */
    static Arbitrary<String> numbers() {
        Arbitrary<BigInteger> unscaled = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(38).map(BigInteger::new)
                .flatMap(n -> Arbitraries.of(n, n.negate()));
        Arbitrary<String> any = Combinators.combine(unscaled, Arbitraries.integers().between(-125, 130), Arbitraries.of(true, false))
                .as((digits, scale, plain) -> {
                    BigDecimal number = new BigDecimal(digits, scale);
                    int exponent = number.precision() - 1 - number.scale();
                    if (number.signum() != 0 && (exponent > 125 || exponent < -130)) {
                        number = new BigDecimal(digits, number.precision() - 1 - Integer.signum(exponent) * 125);
                    }
                    return plain ? number.toPlainString() : number.toString();
                });
        return Arbitraries.oneOf(any, Arbitraries.of("9223372036854775807", "9223372036854775808", "-9223372036854775808",
                "-9223372036854775809", "99999999999999999999999999999999999999", "1E+125", "9.9999999999999999999999999999999999999E+125",
                "-1E-130", "0"));
    }

    /** Text DynamoDB can hold: any Unicode, no lone surrogates. */
    private static Arbitrary<String> texts(int maxLength) {
        return Arbitraries.integers().between(0, 0x10FFFF).filter(cp -> cp < 0xD800 || cp > 0xDFFF).list().ofMaxSize(maxLength)
                .map(cps -> {
                    StringBuilder text = new StringBuilder();
                    cps.forEach(text::appendCodePoint);
                    return text.toString();
                });
    }
}
