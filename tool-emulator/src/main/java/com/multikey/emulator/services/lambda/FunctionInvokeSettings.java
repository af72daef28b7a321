package com.multikey.emulator.services.lambda;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateException;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * How the local Lambda API invokes one of the template's functions, read from its properties: the names it
 * answers to and the settings of its asynchronous invocations.
 */
public final class FunctionInvokeSettings {

    private static final int LOCAL_UNRESERVED_CONCURRENCY = 4;
    private static final int LOCAL_ASYNC_RETRY_DELAY_MILLIS = 200;

    private FunctionInvokeSettings() {
    }

    /** The names the Invoke API knows a function by: its logical id, its {@code FunctionName} and its ARN. */
    public static Set<String> invocableNames(SamTemplate deployed, String function, Map<String, String> names) {
        Set<String> invocable = new LinkedHashSet<>(List.of(function));
        Object name = deployed.properties(function).get("FunctionName");
        if (name != null) {
            invocable.add(TemplateEnvironment.resolve(name, deployed, names, function + ".FunctionName"));
        }
        invocable.add(TemplateEnvironment.resolve(Map.of("Fn::GetAtt", List.of(function, "Arn")), deployed, names, function + ".Arn"));
        return invocable;
    }

    /**
     * Asynchronous invocations as the template configures them: at most {@code ReservedConcurrentExecutions} at
     * once (unreserved: {@value #LOCAL_UNRESERVED_CONCURRENCY}), {@code EventInvokeConfig.MaximumRetryAttempts}
     * retries (default 2, as Lambda's), spaced by {@value #LOCAL_ASYNC_RETRY_DELAY_MILLIS} ms instead of minutes; the
     * invocation record of an event given up on sent to {@code EventInvokeConfig.DestinationConfig.OnFailure} (SQS).
     *
     * @param sendToQueue sends a body to a queue (by its local name)
     */
    public static LocalLambdaApi.AsyncSettings asyncSettings(SamTemplate deployed, String function, Map<String, String> names,
                                                             BiConsumer<String, String> sendToQueue) {
        Map<String, Object> properties = deployed.properties(function);
        int concurrency = LOCAL_UNRESERVED_CONCURRENCY;
        if (properties.get("ReservedConcurrentExecutions") != null) {
            concurrency = Integer.parseInt(TemplateEnvironment.resolve(properties.get("ReservedConcurrentExecutions"), deployed, names,
                    function + ".ReservedConcurrentExecutions"));
        }
        int retries = 2;
        if (properties.get("EventInvokeConfig") instanceof Map<?, ?> config && config.get("MaximumRetryAttempts") != null) {
            retries = Integer.parseInt(TemplateEnvironment.resolve(config.get("MaximumRetryAttempts"), deployed, names,
                    function + ".EventInvokeConfig.MaximumRetryAttempts"));
        }
        Consumer<String> onFailure = record -> { };
        if (properties.get("EventInvokeConfig") instanceof Map<?, ?> config && config.get("DestinationConfig") instanceof Map<?, ?> destinations
                && destinations.get("OnFailure") instanceof Map<?, ?> destination) {
            String where = function + ".EventInvokeConfig.DestinationConfig.OnFailure";
            if (!"SQS".equals(destination.get("Type"))) {
                throw new TemplateException(where + ": only Type SQS is emulated");
            }
            String arn = TemplateEnvironment.resolve(destination.get("Destination"), deployed, names, where + ".Destination");
            String queue = arn.substring(arn.lastIndexOf(':') + 1);
            onFailure = record -> sendToQueue.accept(queue, record);
        }
        return new LocalLambdaApi.AsyncSettings(concurrency, retries, Duration.ofMillis(LOCAL_ASYNC_RETRY_DELAY_MILLIS), onFailure);
    }
}
