package com.multikey.redrive.handler;

import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deployable jar template.yaml's {@code RedriveFunction} points to. RedriveIT runs it from its own class
 * loader against the local stack (SQS, DynamoDB Streams, DynamoDB and the Lambda client); this test checks
 * what it holds, and that the handler builds its clients as in Lambda, without endpoint overrides.
 */
class RedriveJarIT {

    @Test
    void jar_isAtMostTenMegabytes_withTheClientsItUses_andNoSecondJsonLibrary() throws Throwable {
        try (DeployableJar jar = DeployableJar.of(SamTemplate.ofRepository(), "RedriveFunction")) {
            assertThat(jar.sizeBytes()).as("%s size", jar).isLessThanOrEqualTo(10_000_000L);
            assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.streams.DefaultDynamoDbStreamsClient")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.sqs.DefaultSqsClient")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.lambda.DefaultLambdaClient")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.lambda.model.InvokeResponse")).isTrue();
            // the one-reader mode: the consumer's checkpoints are read (GetItem) and a chunk's records marked indexed (PutItem)
            assertThat(jar.hasClass("com.multikey.common.DynamoDbJobCheckpoints")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.transform.GetItemRequestMarshaller")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.transform.PutItemRequestMarshaller")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.PutItemResponse")).isTrue();
            // a Kinesis source's ranges read back: GetShardIterator and GetRecords, CBOR against AWS
            assertThat(jar.hasClass("software.amazon.awssdk.services.kinesis.DefaultKinesisClient")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.kinesis.transform.GetShardIteratorRequestMarshaller")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.kinesis.transform.GetRecordsRequestMarshaller")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.kinesis.model.GetRecordsResponse")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.kinesis.model.Record")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.kinesis.model.ChildShard")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.services.kinesis.model.ExpiredIteratorException")).isTrue();
            assertThat(jar.hasClass("software.amazon.awssdk.protocols.cbor.AwsCborProtocolFactory")).isTrue();
            assertThat(jar.hasClass("org.joda.time.DateTime")).as("the runtime's event reader loads it").isTrue();
            assertThat(jar.entries()).noneMatch(name -> name.startsWith("com/fasterxml/jackson/")
                    || name.startsWith("software/amazon/awssdk/http/apache/") || name.startsWith("io/netty/"));
            assertThat(jar.classesNewerThan(65)).as("classes the java21 runtime cannot load").isEmpty();

            // verifying the clients loads every request class and registers every error: it fails if one is missing
            Object handler = jar.newHandler(Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "x", "AWS_SECRET_ACCESS_KEY", "y"));
            assertThat(handler.getClass().getName()).isEqualTo(RedriveHandler.class.getName());
        }
    }
}
