package com.multikey.redrive;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * {@link KinesisShards} on the SDK's {@link KinesisClient} (built by {@code ClientFactory.kinesis()}). The client retries
 * a throttled or failed call itself ({@code ProvisionedThroughputExceededException}, {@code LimitExceededException}, a
 * 5xx, an I/O error; {@code ClientFactory.MAX_ATTEMPTS_PER_CALL} attempts in all); an error Kinesis still answers then
 * ({@code ExpiredIteratorException}, {@code ResourceNotFoundException}, {@code InvalidArgumentException}, a {@code KMS*}
 * exception, ...) becomes the port's {@link KinesisShards.KinesisException} with the service's error code.
 */
public final class KinesisSdkShards implements KinesisShards {

    private final KinesisClient kinesis;

    public KinesisSdkShards(KinesisClient kinesis) {
        this.kinesis = kinesis;
    }

    @Override
    public String shardIteratorAt(String streamArn, String shardId, String sequenceNumber) {
        try {
            return kinesis.getShardIterator(b -> b.streamARN(streamArn).shardId(shardId)
                    .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER).startingSequenceNumber(sequenceNumber)).shardIterator();
        } catch (software.amazon.awssdk.services.kinesis.model.KinesisException e) {
            throw answered(e);
        }
    }

    @Override
    public Page records(String shardIterator, int limit) {
        GetRecordsResponse answer;
        try {
            answer = kinesis.getRecords(b -> b.shardIterator(shardIterator).limit(limit));
        } catch (software.amazon.awssdk.services.kinesis.model.KinesisException e) {
            throw answered(e);
        }
        return new Page(answer.records().stream().map(record -> new Record(record.sequenceNumber(), record.partitionKey(),
                record.data().asByteArrayUnsafe(), record.approximateArrivalTimestamp())).toList(), answer.nextShardIterator(),
                answer.millisBehindLatest() == null ? 0 : answer.millisBehindLatest());
    }

    /**
     * The service's error code: from the answer's details, else the modelled exception's name (they are the same). The
     * SDK's exception shares its simple name with the port's: it is named in full.
     */
    static KinesisShards.KinesisException answered(software.amazon.awssdk.services.kinesis.model.KinesisException e) {
        AwsErrorDetails details = e.awsErrorDetails();
        String code = details != null && details.errorCode() != null ? details.errorCode() : e.getClass().getSimpleName();
        String message = details != null && details.errorMessage() != null ? details.errorMessage() : e.getMessage();
        KinesisShards.KinesisException answered = new KinesisShards.KinesisException(code, String.valueOf(message));
        answered.initCause(e);
        return answered;
    }
}
