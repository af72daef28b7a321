package com.multikey.emulator.services.bus;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateException;
import software.amazon.event.ruler.Machine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The template's {@code AWS::Events::Rule}s on the local bus: each accepted event is matched with
 * event-ruler (EventBridge's own matching engine) and handed to the target functions of the rules it
 * matches, retried a few times as EventBridge retries an asynchronous target; an event no attempt delivered goes,
 * as it was, to the target's {@code DeadLetterConfig} queue on the local SQS endpoint.
 */
public final class BusRules {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LOCAL_MAX_TARGET_ATTEMPTS = 3;

    /** One event the bus accepted, the rules it matched, and what their targets answered. */
    public record RoutedEvent(String detailType, List<String> rules) {
    }

    /** One rule-target invocation and its answer (or error). */
    public record TargetCall(String rule, String function, String result) {
    }

    private record Target(String function, Optional<String> deadLetterQueue) {
    }

    private record Rule(String logicalId, List<Target> targets) {
    }

    private final SamTemplate template;
    private final Map<String, String> names;
    private final Map<String, LocalFunction> functions;
    private final Consumer<String> out;
    private final BiConsumer<String, String> deadLetters;
    private final Machine ruleMachine = new Machine();
    private final List<Rule> rules = new ArrayList<>();
    private final List<RoutedEvent> routed = new CopyOnWriteArrayList<>();
    private final List<TargetCall> targetCalls = new CopyOnWriteArrayList<>();

    /**
     * The rules of {@code template} (as deployed), their targets among {@code functions}.
     *
     * @param deadLetters sends a body to a queue (by its local name)
     */
    public BusRules(SamTemplate template, Map<String, String> names, Map<String, LocalFunction> functions, Consumer<String> out,
                    BiConsumer<String, String> deadLetters) {
        this.template = template;
        this.names = names;
        this.functions = functions;
        this.out = out;
        this.deadLetters = deadLetters;
        for (String rule : template.resourcesOfType("AWS::Events::Rule")) {
            bindRule(rule);
        }
    }

    /** Every event the bus accepted, with the rules it matched. */
    public List<RoutedEvent> routed() {
        return List.copyOf(routed);
    }

    /** Every target invocation, with its answer. */
    public List<TargetCall> targetCalls() {
        return List.copyOf(targetCalls);
    }

    private void bindRule(String logicalId) {
        Map<String, Object> properties = template.properties(logicalId);
        Object pattern = TemplateEnvironment.resolveAll(properties.get("EventPattern"), template, names, logicalId + ".EventPattern");
        try {
            ruleMachine.addRule(logicalId, JSON.writeValueAsString(pattern));
        } catch (Exception e) {
            throw new TemplateException(logicalId + ".EventPattern is not a valid pattern: " + e.getMessage());
        }
        List<Target> targets = new ArrayList<>();
        for (Object target : (List<?>) properties.getOrDefault("Targets", List.of())) {
            Object arn = ((Map<?, ?>) target).get("Arn");
            if (!(arn instanceof Map<?, ?> getAtt) || !(getAtt.get("Fn::GetAtt") instanceof List<?> parts)
                    || !functions.containsKey((String) parts.get(0))) {
                throw new TemplateException(logicalId + ".Targets: only !GetAtt <Function>.Arn targets are emulated");
            }
            Optional<String> deadLetterQueue = Optional.empty();
            if (((Map<?, ?>) target).get("DeadLetterConfig") instanceof Map<?, ?> deadLetter && deadLetter.get("Arn") != null) {
                String queueArn = TemplateEnvironment.resolve(deadLetter.get("Arn"), template, names, logicalId + ".Targets.DeadLetterConfig.Arn");
                deadLetterQueue = Optional.of(queueArn.substring(queueArn.lastIndexOf(':') + 1));
            }
            targets.add(new Target((String) parts.get(0), deadLetterQueue));
        }
        rules.add(new Rule(logicalId, targets));
    }

    void route(LocalEventBridge.Received event) {
        List<String> matched;
        try {
            matched = ruleMachine.rulesForJSONEvent(event.envelope().toString());
        } catch (Exception e) {
            out.accept("bus: event could not be matched: " + e.getMessage());
            return;
        }
        routed.add(new RoutedEvent(event.detailType(), List.copyOf(matched)));
        out.accept("bus: " + event.detailType() + " " + event.envelope().path("detail").path("keys")
                + (matched.isEmpty() ? " (no rule matched)" : " -> " + String.join(", ", matched)));
        for (Rule rule : rules) {
            if (!matched.contains(rule.logicalId())) {
                continue;
            }
            for (Target target : rule.targets()) {
                invokeTarget(rule.logicalId(), target, event);
            }
        }
    }

    private void invokeTarget(String rule, Target target, LocalEventBridge.Received event) {
        LocalFunction function = functions.get(target.function());
        for (int attempt = 1; ; attempt++) {
            try {
                String result = LocalFunction.display(function.invoke(event.envelope().toString()));
                targetCalls.add(new TargetCall(rule, function.logicalId(), result));
                out.accept("  " + function.logicalId() + ": " + result);
                return;
            } catch (RuntimeException e) {
                if (attempt >= LOCAL_MAX_TARGET_ATTEMPTS) {
                    targetCalls.add(new TargetCall(rule, function.logicalId(), "failed: " + e.getMessage()));
                    target.deadLetterQueue().ifPresent(queue -> deadLetters.accept(queue, event.envelope().toString()));
                    out.accept("  " + function.logicalId() + " failed " + attempt + " times; " + target.deadLetterQueue()
                            .map(queue -> "sent to the dead-letter queue " + queue).orElse("dropped (no dead-letter queue)") + ": " + e.getMessage());
                    return;
                }
                sleep(Duration.ofMillis(200L * attempt));
            }
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
