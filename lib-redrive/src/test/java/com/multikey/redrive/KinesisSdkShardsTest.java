package com.multikey.redrive;

import com.multikey.common.ClientFactory;
import com.multikey.emulator.services.kinesis.LocalKinesis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ExpiredIteratorException;
import software.amazon.awssdk.services.kinesis.model.GetRecordsRequest;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.kinesis.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.kinesis.model.KmsAccessDeniedException;
import software.amazon.awssdk.services.kinesis.model.PutRecordResponse;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Kinesis port on the SDK's client: against the local Kinesis endpoint, and the SDK's exceptions as the port's. */
class KinesisSdkShardsTest {

    private LocalKinesis local;
    private KinesisClient client;

    @BeforeEach
    void start() {
        local = LocalKinesis.start("127.0.0.1", 0, Clock.systemUTC(), "us-east-1");
        client = new ClientFactory(Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "k", "AWS_SECRET_ACCESS_KEY", "s",
                "AWS_ENDPOINT_URL_KINESIS", local.endpoint().toString())).kinesis();
    }

    @AfterEach
    void stop() {
        client.close();
        local.close();
    }

    @Test
    void shardIteratorAtAndRecords_readTheShardFromTheSequenceNumberOn_theirDataDecoded() {
        client.createStream(b -> b.streamName("Changes").shardCount(1));
        String arn = client.describeStreamSummary(b -> b.streamName("Changes")).streamDescriptionSummary().streamARN();
        List<PutRecordResponse> put = new ArrayList<>();
        for (int n = 0; n < 3; n++) {
            String data = "{\"n\":" + n + "}";
            put.add(client.putRecord(b -> b.streamARN(arn).partitionKey("p").data(SdkBytes.fromUtf8String(data))));
        }
        KinesisShards shards = new KinesisSdkShards(client);

        String iterator = shards.shardIteratorAt(arn, put.get(1).shardId(), put.get(1).sequenceNumber());
        KinesisShards.Page page = shards.records(iterator, 10);

        assertThat(page.records()).extracting(KinesisShards.Record::sequenceNumber)
                .containsExactly(put.get(1).sequenceNumber(), put.get(2).sequenceNumber());
        assertThat(new String(page.records().get(0).data(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":1}");
        assertThat(page.records().get(0).partitionKey()).isEqualTo("p");
        assertThat(page.records().get(0).arrival()).isNotNull();
        assertThat(page.nextShardIterator()).isNotNull();
        assertThat(page.millisBehindLatest()).isZero();
    }

    @Test
    void shardIteratorAt_whenTheStreamIsGone_isResourceNotFound() {
        KinesisShards shards = new KinesisSdkShards(client);

        assertThatThrownBy(() -> shards.shardIteratorAt("arn:aws:kinesis:us-east-1:000000000000:stream/Gone", "shardId-000000000000",
                "49590000000000000000000000000000000000000000000000000010"))
                .isInstanceOfSatisfying(KinesisShards.KinesisException.class,
                        e -> assertThat(e.errorCode()).isEqualTo("ResourceNotFoundException"));
    }

    @Test
    void records_whenTheIteratorIsRefused_isInvalidArgument() {
        KinesisShards shards = new KinesisSdkShards(client);

        assertThatThrownBy(() -> shards.records("not-an-iterator", 10)).isInstanceOfSatisfying(KinesisShards.KinesisException.class,
                e -> assertThat(e.errorCode()).isEqualTo("InvalidArgumentException"));
    }

    /** A client whose two calls throw what it is given. */
    private static KinesisClient throwing(RuntimeException error) {
        return new KinesisClient() {
            @Override
            public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
                throw error;
            }

            @Override
            public GetRecordsResponse getRecords(GetRecordsRequest request) {
                throw error;
            }

            @Override
            public String serviceName() {
                return "kinesis";
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void records_whenTheIteratorExpired_isExpiredIterator_aFailureToRunAgain() {
        KinesisShards shards = new KinesisSdkShards(throwing(ExpiredIteratorException.builder().message("Iterator expired").build()));

        assertThatThrownBy(() -> shards.records("it", 10)).isInstanceOfSatisfying(KinesisShards.KinesisException.class,
                e -> assertThat(e.errorCode()).isEqualTo("ExpiredIteratorException"));
    }

    @Test
    void shardIteratorAt_whenKmsRefuses_carriesTheServicesErrorCode() {
        KinesisShards shards = new KinesisSdkShards(throwing(KmsAccessDeniedException.builder().message("denied")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("KMSAccessDeniedException").errorMessage("denied").build()).build()));

        assertThatThrownBy(() -> shards.shardIteratorAt("arn", "shardId-000000000000", "1"))
                .isInstanceOfSatisfying(KinesisShards.KinesisException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo("KMSAccessDeniedException");
                    assertThat(e.getMessage()).contains("denied");
                });
    }
}
