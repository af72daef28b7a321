package com.multikey.router;

import java.util.regex.Pattern;

/**
 * What PutEvents accepts, as the Amazon EventBridge API Reference states it (PutEvents,
 * PutEventsRequestEntry) and the User Guide's "Calculating PutEvents event entry size". The router keeps
 * every entry within these before it writes, so an entry is never refused for what could be known here.
 */
final class PutEventsLimits {

    /** PutEvents: Entries, at most 10 array members. */
    static final int MAX_ENTRIES_PER_CALL = 10;
    /** PutEventsRequestEntry: DetailType, 1 to 128 characters. */
    static final int MAX_DETAIL_TYPE_CHARS = 128;
    /** PutEventsRequestEntry: Source, 1 to 256 characters; the {@code aws.} prefix is reserved for AWS services. */
    static final int MAX_SOURCE_CHARS = 256;
    static final String RESERVED_SOURCE_PREFIX = "aws.";
    /** PutEventsRequestEntry: EventBusName, 1 to 1600 characters, a name or an event bus ARN. */
    static final int MAX_EVENT_BUS_NAME_CHARS = 1600;
    static final Pattern EVENT_BUS_NAME =
            Pattern.compile("(arn:aws[\\w-]*:events:[a-z]+-[a-z]+-[\\w-]+:[0-9]{12}:event-bus/)?[/.\\-_A-Za-z0-9]+");
    /** PutEventsRequestEntry: Resources, members of at most 2048 characters. */
    static final int MAX_RESOURCE_CHARS = 2048;
    /** PutEvents: "PutEvents will only process nested JSON up to 1000 levels deep." */
    static final int MAX_DETAIL_NESTING = 1000;
    /**
     * PutEvents: "the total entry size must be less than 256KB" (the default, {@link RouterConfig#DEFAULT_MAX_ENTRY_BYTES});
     * the quota is 1 MB in some regions, the most {@code MAX_ENTRY_BYTES} may be set to.
     */
    static final int MAX_ENTRY_BYTES_QUOTA = 1024 * 1024;
    /** Entry size: a Time counts 14 bytes; Source, DetailType, Detail and each resource their UTF-8 bytes. */
    static final int TIME_BYTES = 14;

    private PutEventsLimits() {
    }

    /** Characters as the API counts string lengths: Unicode code points. */
    static int characters(String text) {
        return text.codePointCount(0, text.length());
    }
}
