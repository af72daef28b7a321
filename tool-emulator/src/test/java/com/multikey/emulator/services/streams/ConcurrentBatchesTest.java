package com.multikey.emulator.services.streams;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.emulator.template.TemplateException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The event source mapping with a ParallelizationFactor: concurrent batch lanes of one shard, each item in one lane. */
class ConcurrentBatchesTest {

    /** One delivered batch: its lane and its records' item ids and sequence numbers. */
    private record Delivery(String lane, List<String> items, List<String> sequenceNumbers) {
    }

    private final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();

    /** Records 0..count-1 of {@code items} items, round robin: record n changes item n % items. */
    private static List<Record> records(int count, int items) {
        List<Record> records = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            String id = "issue#" + (n % items);
            records.add(Record.builder().eventID("e" + n).eventName(OperationType.MODIFY)
                    .dynamodb(StreamRecord.builder().keys(Map.of("id", AttributeValue.fromS(id)))
                            .newImage(Map.of("id", AttributeValue.fromS(id), "n", AttributeValue.fromN(Integer.toString(n))))
                            .sequenceNumber(Long.toString(1000 + n)).streamViewType("NEW_AND_OLD_IMAGES").build())
                    .build());
        }
        return records;
    }

    private ConcurrentBatches mapping(int factor, int batchSize, int retries, Function<Delivery, StreamsEventResponse> handler) {
        return new ConcurrentBatches("Fn", factor, "id", lane -> new StreamEventSource("lane" + lane, "arn:stream", null, batchSize, retries,
                true, (String json) -> {
                    mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    try {
                        DynamodbEvent event = LambdaEvents.read(json, DynamodbEvent.class);
                        Delivery delivery = new Delivery("lane" + lane,
                                event.getRecords().stream().map(r -> r.getDynamodb().getKeys().get("id").getS()).toList(),
                                event.getRecords().stream().map(r -> r.getDynamodb().getSequenceNumber()).toList());
                        deliveries.add(delivery);
                        return handler.apply(delivery);
                    } finally {
                        inFlight.decrementAndGet();
                    }
                }, lines::add, OnFailureDestination.NONE));
    }

    private static void drain(ConcurrentBatches mapping) {
        for (int i = 0; i < 200 && !mapping.idle(); i++) {
            mapping.deliverOnce();
        }
    }

    private static StreamsEventResponse ok() {
        return new StreamsEventResponse(List.of());
    }

    @Test
    void deliverOnce_runsTheLanesConcurrently_andKeepsEveryItemInOneLaneInOrder() {
        // given: 4 lanes, 40 items with 5 records each; the first batches of all 4 lanes wait for each other
        CountDownLatch allLanes = new CountDownLatch(4);
        try (ConcurrentBatches mapping = mapping(4, 10, 3, delivery -> {
            allLanes.countDown();
            await(allLanes);
            return ok();
        })) {
            mapping.offer(records(200, 40));

            // when
            drain(mapping);

            // then
            assertThat(mostInFlight.get()).isEqualTo(4);
            Map<String, String> laneOfItem = new ConcurrentHashMap<>();
            Map<String, List<Long>> seenPerItem = new ConcurrentHashMap<>();
            for (Delivery delivery : deliveries) {
                for (int i = 0; i < delivery.items().size(); i++) {
                    String item = delivery.items().get(i);
                    assertThat(laneOfItem.computeIfAbsent(item, k -> delivery.lane())).as(item).isEqualTo(delivery.lane());
                    seenPerItem.computeIfAbsent(item, k -> new ArrayList<>()).add(Long.parseLong(delivery.sequenceNumbers().get(i)));
                }
            }
            assertThat(seenPerItem).hasSize(40);
            seenPerItem.forEach((item, sequence) -> assertThat(sequence).as(item).isSorted().hasSize(5));
            assertThat(Set.copyOf(laneOfItem.values())).hasSize(4);
            assertThat(mapping.onFailure()).isEmpty();
        }
    }

    @Test
    void partialBatchResponse_redeliversInItsLaneOnly_fromTheFailedRecord() {
        // given: issue#3's first record is reported failed once
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        try (ConcurrentBatches mapping = mapping(3, 100, 3, delivery -> {
            int at = delivery.items().indexOf("issue#3");
            if (at >= 0 && failedOnce.add("issue#3")) {
                return new StreamsEventResponse(List.of(new StreamsEventResponse.BatchItemFailure(delivery.sequenceNumbers().get(at))));
            }
            return ok();
        })) {
            mapping.offer(records(60, 12));

            // when
            drain(mapping);

            // then: one lane got a second batch starting at issue#3's first record; the others one batch each
            String laneOf3 = deliveries.stream().filter(d -> d.items().contains("issue#3")).findFirst().orElseThrow().lane();
            assertThat(deliveries).filteredOn(d -> d.lane().equals(laneOf3)).hasSize(2);
            Delivery again = deliveries.stream().filter(d -> d.lane().equals(laneOf3)).toList().get(1);
            assertThat(again.sequenceNumbers().getFirst()).isEqualTo("1003");
            assertThat(deliveries).filteredOn(d -> !d.lane().equals(laneOf3)).hasSize(2)
                    .allMatch(d -> d.sequenceNumbers().size() == d.items().size() && !d.items().contains("issue#3"));
        }
    }

    @Test
    void handlerErrors_bisectAndGoToTheOnFailureDestination_perLane_whileTheOtherLanesDeliver() {
        // given: every batch holding issue#5's records fails; 4 retries let bisection single each one out
        try (ConcurrentBatches mapping = mapping(2, 4, 4, delivery -> {
            if (delivery.items().contains("issue#5")) {
                throw new IllegalStateException("boom");
            }
            return ok();
        })) {
            mapping.offer(records(40, 8));

            // when
            drain(mapping);

            // then: only issue#5's records are given up on; every other record was delivered
            Set<String> givenUp = new HashSet<>();
            mapping.onFailure().forEach(givenUp::addAll);
            Set<String> of5 = new HashSet<>();
            for (int n = 5; n < 40; n += 8) {
                of5.add(Long.toString(1000 + n));
            }
            assertThat(givenUp).isEqualTo(of5);
            Set<String> delivered = new HashSet<>();
            deliveries.stream().filter(d -> !d.items().contains("issue#5")).forEach(d -> delivered.addAll(d.sequenceNumbers()));
            assertThat(delivered).hasSize(40 - of5.size());
            assertThat(lines).anyMatch(line -> line.contains("sent to the on-failure destination"));
        }
    }

    @Test
    void laneOf_dependsOnTheKeysAlone_andSpreadsItems() {
        Set<Integer> lanes = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            Map<String, AttributeValue> keys = Map.of("id", AttributeValue.fromS("issue#" + i));
            int lane = ConcurrentBatches.laneOf(keys, "id", 10);
            assertThat(ConcurrentBatches.laneOf(Map.of("id", AttributeValue.fromS("issue#" + i)), "id", 10)).isEqualTo(lane);
            lanes.add(lane);
        }
        assertThat(lanes).hasSize(10);
        assertThat(ConcurrentBatches.laneOf(Map.of("id", AttributeValue.fromS("x")), "id", 1)).isZero();
    }

    @Test
    void laneOf_whenOneItemsKeyNumberIsSpelledDifferently_isTheSameLane() {
        // given: the spellings a stream can carry for one number key (a MODIFY record keeps the request's)
        List<List<String>> spellings = List.of(List.of("100", "1E+2", "1e2", "100.0", "1.00E+2"), List.of("1", "1.0", "1e0", "10E-1"),
                List.of("-9.9999999999999999999999999999999999999E+125", "-99999999999999999999999999999999999999E+88"),
                List.of("1E-130", "0.1E-129", "1.000E-130"), List.of("0", "0.0", "-0", "0E+5"));
        for (List<String> numbers : spellings) {
            for (int i = 0; i < 20; i++) {
                String pk = "CUST#r" + i;
                // when
                Set<Integer> lanes = new HashSet<>();
                numbers.forEach(n -> lanes.add(ConcurrentBatches.laneOf(Map.of("PK", AttributeValue.fromN(n), "SK", AttributeValue.fromS(pk)), "PK", 10)));
                // then
                assertThat(lanes).as(pk + " " + numbers).hasSize(1);
            }
        }
    }

    @Test
    void laneOf_isChosenByThePartitionKeyAlone_asLambdaKeepsOnePartitionKeysRecordsInOrder() {
        for (int i = 0; i < 20; i++) {
            Map<String, AttributeValue> first = Map.of("PK", AttributeValue.fromS("CUST#r" + i), "SK", AttributeValue.fromN("-1E+125"));
            int lane = ConcurrentBatches.laneOf(first, "PK", 10);
            for (String sk : List.of("5", "1E-130", "-9.9999999999999999999999999999999999999E+125", "100.0")) {
                assertThat(ConcurrentBatches.laneOf(Map.of("PK", AttributeValue.fromS("CUST#r" + i), "SK", AttributeValue.fromN(sk)), "PK", 10))
                        .as("CUST#r" + i + " " + sk).isEqualTo(lane);
            }
        }
    }

    @Test
    void factor_outsideLambdasRange_isRefused() {
        assertThatThrownBy(() -> mapping(11, 10, 1, d -> ok())).isInstanceOf(TemplateException.class)
                .hasMessageContaining("ParallelizationFactor must be from 1 to 10");
        assertThatThrownBy(() -> mapping(0, 10, 1, d -> ok())).isInstanceOf(TemplateException.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the lanes never delivered together");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
