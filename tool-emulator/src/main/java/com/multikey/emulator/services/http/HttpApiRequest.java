package com.multikey.emulator.services.http;

import java.util.List;
import java.util.Map;

/**
 * One request to the local HTTP API as received: the request line's parts as sent (path and query still
 * percent-encoded), its headers by lower-case name, and its body.
 */
record HttpApiRequest(String method, String rawPath, String rawQuery, String protocol, String sourceIp,
                      Map<String, List<String>> headers, byte[] body) {

    /** The first value of the header {@code name} (lower case), or null. */
    String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
