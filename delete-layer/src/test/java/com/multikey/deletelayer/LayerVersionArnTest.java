package com.multikey.deletelayer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LayerVersionArnTest {

    @Test
    void parse_whenLayerVersionArn_readsEveryPart() {
        LayerVersionArn arn = LayerVersionArn.parse("arn:aws:lambda:eu-west-1:123456789012:layer:multikey-requests:12");

        assertThat(arn).isEqualTo(new LayerVersionArn("aws", "eu-west-1", "123456789012", "multikey-requests", 12));
        assertThat(arn.toString()).isEqualTo("arn:aws:lambda:eu-west-1:123456789012:layer:multikey-requests:12");
        assertThat(LayerVersionArn.parse("arn:aws-cn:lambda:cn-north-1:123456789012:layer:x_y:1").partition()).isEqualTo("aws-cn");
        assertThat(LayerVersionArn.parse("arn:aws-us-gov:lambda:us-gov-west-1:123456789012:layer:x:7").region()).isEqualTo("us-gov-west-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests",
            "arn:aws:lambda:us-east-1:123456789012:function:multikey-requests:12",
            "arn:aws:lambda:us-east-1:12345678901:layer:multikey-requests:12",
            "arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:0",
            "arn:aws:lambda:us-east-1:123456789012:layer:multi/key:12",
            "arn:aws:lambda:us-east-1:🦊:layer:multikey-requests:12",
            "arn:aws:s3:::bucket",
            " arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12",
            "arn:aws:lambda:*:123456789012:layer:multikey-requests:12"})
    void parse_whenNotALayerVersionArn_refusesWithAClearMessage(String text) {
        assertThatThrownBy(() -> LayerVersionArn.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a Lambda layer version ARN");
    }

    @Test
    void parse_whenMissing_says() {
        assertThatThrownBy(() -> LayerVersionArn.parse(null)).hasMessage("layer version ARN is missing");
    }
}
