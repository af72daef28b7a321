package com.multikey.testkit;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** Items of the single-table example ({@code examples/single-table}): pk/sk keyed projects, issues and layer versions. */
public final class SingleTableFixtures {

    private SingleTableFixtures() {
    }

    /**
     * Version {@code version} of the {@code requests} layer in {@code ap-southeast-1}; {@code status} (its {@code dplySts},
     * {@code latest} or {@code deprecated}) null for a version no longer deployed.
     */
    public static Map<String, AttributeValue> layerVersion(int version, String status) {
        Map<String, AttributeValue> layer = new LinkedHashMap<>();
        layer.put("pk", AttributeValue.fromS("lyr#ap-southeast-1.requests"));
        layer.put("sk", AttributeValue.fromS("lyrVrsn" + version + "#"));
        layer.put("arn", AttributeValue.fromS("arn:aws:lambda:ap-southeast-1:123456789012:layer:requests:" + version));
        layer.put("pckg", AttributeValue.fromS("requests"));
        layer.put("region", AttributeValue.fromS("ap-southeast-1"));
        layer.put("vrsn", AttributeValue.fromN(Integer.toString(version)));
        if (status != null) {
            layer.put("dplySts", AttributeValue.fromS(status));
        }
        return layer;
    }
}
