package com.multikey.queryapi;

import com.multikey.query.CursorKeys;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.util.function.Supplier;

/**
 * The cursor keys the stack keeps in its Secrets Manager secret ({@code CursorKeySecret}, in the form
 * {@link CursorKeys#parse} reads), read with {@code GetSecretValue}: at the first cursor, again when a cursor names a
 * key this container has not seen (a rotation), and when the keys it holds are five minutes old, through
 * {@link com.multikey.query.CursorSealer#reloading}.
 */
final class SecretsManagerCursorKeys implements Supplier<CursorKeys> {

    private final SecretsManagerClient secretsManager;
    private final String secretId;

    SecretsManagerCursorKeys(SecretsManagerClient secretsManager, String secretId) {
        this.secretsManager = secretsManager;
        this.secretId = secretId;
    }

    /**
     * @throws IllegalStateException when the secret does not hold cursor keys: the deployment is broken, the invocation
     *                               fails (the function's error alarm), no caller is told about keys
     */
    @Override
    public CursorKeys get() {
        String secret = secretsManager.getSecretValue(b -> b.secretId(secretId)).secretString();
        try {
            return CursorKeys.parse(secret == null ? "" : secret);
        } catch (IllegalArgumentException e) {
            // the message names the field at fault, never a key's material
            throw new IllegalStateException("the secret CURSOR_KEY_SECRET_ARN names does not hold cursor keys: " + e.getMessage());
        }
    }
}
