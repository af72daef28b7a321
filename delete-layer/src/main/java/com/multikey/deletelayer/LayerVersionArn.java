package com.multikey.deletelayer;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Lambda layer version ARN: {@code arn:<partition>:lambda:<region>:<account>:layer:<name>:<version>}. */
public record LayerVersionArn(String partition, String region, String accountId, String layerName, long version) {

    private static final Pattern ARN = Pattern.compile(
            "arn:(aws|aws-cn|aws-us-gov|aws-iso|aws-iso-[a-z]):lambda:([a-z]{2}(-[a-z]+)+-\\d):(\\d{12}):layer:([A-Za-z0-9_-]{1,140}):([1-9]\\d{0,15})");

    /** @throws IllegalArgumentException naming what is wrong, when the text is not a layer version ARN */
    public static LayerVersionArn parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("layer version ARN is missing");
        }
        Matcher matcher = ARN.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a Lambda layer version ARN (arn:<partition>:lambda:<region>:<account>:layer:<name>:<version>)");
        }
        return new LayerVersionArn(matcher.group(1), matcher.group(2), matcher.group(4), matcher.group(5),
                Long.parseLong(matcher.group(6)));
    }

    @Override
    public String toString() {
        return "arn:" + partition + ":lambda:" + region + ":" + accountId + ":layer:" + layerName + ":" + version;
    }
}
