package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A page of issues (whole items from the app table), the cursor of the next page, and the API calls it
 * took (a Query and a BatchGetItem, plus retries of unprocessed keys; one Query for issues lacking the
 * field). A page may hold fewer issues than asked when a multi-valued issue was already listed under
 * another of its values, or an index item was stale; only an empty {@code nextCursor} means the end.
 */
public record Page(List<Map<String, AttributeValue>> issues, Optional<String> nextCursor, int apiCalls) {
}
