package com.multikey.testkit;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A response's content type against the media types an OpenAPI content object lists. */
final class MediaTypes {

    private MediaTypes() {
    }

    /** The media type key naming a content type: the same type, else {@code type/*}, else {@code *}{@code /*}. */
    static Optional<String> keyOf(JsonNode content, String contentType) {
        for (Iterator<String> names = content.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (of(name).equals(contentType)) {
                return Optional.of(name);
            }
        }
        String range = contentType.substring(0, contentType.indexOf('/') + 1) + "*";
        for (String key : List.of(range, "*/*")) {
            if (content.has(key)) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    /** A content type without its parameters, lower case: {@code application/json; charset=utf-8} is application/json. */
    static String of(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    static boolean isJson(String mediaType) {
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }
}
