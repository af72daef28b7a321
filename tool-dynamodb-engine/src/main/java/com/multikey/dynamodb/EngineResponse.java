package com.multikey.dynamodb;

import java.nio.charset.StandardCharsets;

/** An answer of the engine: the HTTP status and the JSON body. */
public record EngineResponse(int status, byte[] body) {

    public static final String CONTENT_TYPE = "application/x-amz-json-1.0";

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
