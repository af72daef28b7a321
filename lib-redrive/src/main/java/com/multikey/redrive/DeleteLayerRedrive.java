package com.multikey.redrive;

import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * The delete-layer dead-letter queue: each message's body is the {@code Layer Expired} event as the rule
 * sent it; redrive invokes delete-layer with it again (delete-layer keeps a tombstone and refuses what it
 * must not delete, so a second delivery is harmless).
 */
final class DeleteLayerRedrive implements MessageAction {

    private final FunctionInvoker invoker;
    private final String deleteLayerFunction;

    DeleteLayerRedrive(FunctionInvoker invoker, String deleteLayerFunction) {
        this.invoker = invoker;
        this.deleteLayerFunction = deleteLayerFunction;
    }

    @Override
    public Result handle(String body, boolean dryRun) {
        JsonNode event = Json.parse(body);
        if (Json.text(event, "detail-type") == null || Json.field(event, "detail").isEmpty()) {
            throw new IllegalArgumentException("not an EventBridge event (no detail-type or detail)");
        }
        String id = Json.text(event, "id");
        String what = "event " + (id == null ? "?" : id) + " (" + Json.text(event, "detail-type") + ")";
        if (dryRun) {
            return new Result.Done("would re-invoke " + deleteLayerFunction + " with " + what);
        }
        String answer = invoker.invoke(deleteLayerFunction, body);
        return new Result.Done("re-invoked " + deleteLayerFunction + " with " + what + ": " + answer);
    }
}
