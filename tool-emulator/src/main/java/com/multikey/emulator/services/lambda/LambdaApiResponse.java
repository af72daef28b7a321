package com.multikey.emulator.services.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Map;

/** An answer of the local Lambda API: its status, headers and body, and its errors in the shape Lambda gives them. */
record LambdaApiResponse(int status, Map<String, String> headers, String body) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static LambdaApiResponse error(int status, String type, String message) {
        String body = "{\"Type\":\"User\",\"message\":" + quote(message) + ",\"__type\":\"" + type + "\"}";
        return new LambdaApiResponse(status, Map.of("Content-Type", "application/json", "x-amzn-ErrorType", type), body);
    }

    static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
