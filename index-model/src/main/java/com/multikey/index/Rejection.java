package com.multikey.index;

import java.util.Optional;

/**
 * Why part of an issue version gets no index items: a whole image ({@code attribId} empty) or one custom
 * field. The reason names types and rules, never values.
 */
public record Rejection(String issueId, Optional<String> attribId, String reason) {

    public static Rejection ofImage(String issueId, String reason) {
        return new Rejection(issueId, Optional.empty(), reason);
    }

    public static Rejection ofField(String issueId, String attribId, String reason) {
        return new Rejection(issueId, Optional.of(attribId), reason);
    }
}
