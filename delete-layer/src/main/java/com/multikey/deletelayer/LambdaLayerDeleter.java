package com.multikey.deletelayer;

import com.multikey.common.ClientFactory;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.ResourceNotFoundException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@code lambda:DeleteLayerVersion} in the layer's own region, with one client per region, reused. */
public final class LambdaLayerDeleter implements LayerDeleter {

    private final ClientFactory clients;
    private final Map<String, LambdaClient> byRegion = new ConcurrentHashMap<>();

    public LambdaLayerDeleter(ClientFactory clients) {
        this.clients = clients;
    }

    @Override
    public void delete(LayerVersionArn arn) {
        LambdaClient lambda = byRegion.computeIfAbsent(arn.region(), region ->
                clients.configure(LambdaClient.builder(), "LAMBDA").region(Region.of(region))
                        .httpClient(ClientFactory.httpClient()).build());
        try {
            lambda.deleteLayerVersion(b -> b.layerName(arn.layerName()).versionNumber(arn.version()));
        } catch (ResourceNotFoundException alreadyGone) {
            // deleting is idempotent: a redelivered event finds the version gone
        }
    }
}
