package com.multikey.index;

import java.util.Objects;

/**
 * Why part of an issue version gets no index items: the whole image, or one custom field. The reason names
 * types and rules, never values.
 */
public sealed interface Rejection {

    String issueId();

    String reason();

    /** The image gets no index items at all (no custom fields map, no project or num, an id too long). */
    record Image(String issueId, String reason) implements Rejection {
        public Image {
            Objects.requireNonNull(issueId, "issueId");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** One custom field gets no index items; the image's other fields are indexed. */
    record Field(String issueId, String attribId, String reason) implements Rejection {
        public Field {
            Objects.requireNonNull(issueId, "issueId");
            Objects.requireNonNull(attribId, "attribId");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
