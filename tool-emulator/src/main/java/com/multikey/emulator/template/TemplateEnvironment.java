package com.multikey.emulator.template;

import com.multikey.emulator.services.dynamodb.LocalDynamoDb;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A function's environment variables as {@code template.yaml} sets them (Globals, then the function's
 * own), with intrinsic functions resolved to local values: resources to their local names and ARNs,
 * parameters to their defaults, pseudo parameters to a local account and region.
 */
public final class TemplateEnvironment {

    /** The account id local ARNs use: the one SAM CLI puts in generated events and the samples use. */
    public static final String LOCAL_ACCOUNT = "123456789012";
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!]+)}");

    private TemplateEnvironment() {
    }

    public static Map<String, String> of(SamTemplate template, String functionLogicalId, Map<String, String> localNames) {
        Map<String, String> env = new LinkedHashMap<>();
        Object globals = template.root().get("Globals");
        if (globals instanceof Map<?, ?> g && g.get("Function") instanceof Map<?, ?> function) {
            addVariables(env, function, template, localNames, "Globals.Function");
        }
        addVariables(env, template.properties(functionLogicalId), template, localNames, functionLogicalId);
        return env;
    }

    private static void addVariables(Map<String, String> env, Map<?, ?> functionProperties, SamTemplate template,
                                     Map<String, String> localNames, String where) {
        if (!(functionProperties.get("Environment") instanceof Map<?, ?> environment)
                || !(environment.get("Variables") instanceof Map<?, ?> variables)) {
            return;
        }
        Map<?, ?> deployed = (Map<?, ?>) template.applyConditions(variables, where + ".Environment.Variables");
        deployed.forEach((name, value) -> env.put((String) name, resolve(value, template, localNames, where + "." + name)));
    }

    /**
     * A function's environment for a run on this machine: the template's variables, the local region and
     * credentials, and {@code AWS_ENDPOINT_URL_<SERVICE>} for each local endpoint (e.g. {@code DYNAMODB}).
     */
    public static Map<String, String> forLocalRun(SamTemplate template, String functionLogicalId, Map<String, String> localNames,
                                                  Map<String, java.net.URI> endpointsByService) {
        Map<String, String> env = new LinkedHashMap<>(of(template, functionLogicalId, localNames));
        env.put("AWS_REGION", LocalDynamoDb.REGION.id());
        env.put("AWS_ACCESS_KEY_ID", LocalDynamoDb.ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", LocalDynamoDb.SECRET_KEY);
        endpointsByService.forEach((service, endpoint) -> env.put("AWS_ENDPOINT_URL_" + service, endpoint.toString()));
        return env;
    }

    /** Local values of the pseudo parameters. */
    public static final Map<String, String> PSEUDO_PARAMETERS = Map.of(
            "AWS::AccountId", LOCAL_ACCOUNT, "AWS::Region", "us-east-1", "AWS::Partition", "aws",
            "AWS::StackName", "local", "AWS::URLSuffix", "amazonaws.com");

    /**
     * A scalar, {@code !Ref} to a resource with a local name, a parameter (its default) or a pseudo
     * parameter, {@code !GetAtt X.Arn} / {@code X.StreamArn} / {@code X.QueueName} of such a resource,
     * {@code !Sub} over those, or {@code !If} choosing one of them by a condition of the template.
     */
    public static String resolve(Object value, SamTemplate template, Map<String, String> localNames, String where) {
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        if (value instanceof Map<?, ?> map && map.size() == 1) {
            if (map.get("Ref") instanceof String ref) {
                return ref(ref, template, localNames, where);
            }
            if (map.get("Fn::GetAtt") instanceof List<?> parts && parts.size() == 2) {
                return attribute((String) parts.get(0), (String) parts.get(1), template, localNames, where);
            }
            if (map.get("Fn::Sub") instanceof String text) {
                return substitute(text, variable -> {
                    int dot = variable.indexOf('.');
                    return dot < 0 || variable.startsWith("AWS::")
                            ? ref(variable, template, localNames, where)
                            : attribute(variable.substring(0, dot), variable.substring(dot + 1), template, localNames, where);
                });
            }
            if (map.containsKey("Fn::If")) {
                Object chosen = template.branch(map.get("Fn::If"), where);
                if (SamTemplate.NO_VALUE.equals(chosen)) {
                    throw new IllegalArgumentException(where + ": Fn::If chooses AWS::NoValue, where a value is needed");
                }
                return resolve(chosen, template, localNames, where);
            }
        }
        throw new IllegalArgumentException(where + ": cannot resolve " + describe(value) + " locally");
    }

    /** {@code text} with each {@code ${variable}} replaced by what {@code values} gives for it. */
    static String substitute(String text, java.util.function.UnaryOperator<String> values) {
        Matcher matcher = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(values.apply(matcher.group(1))));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /**
     * Every value below {@code node} resolved: maps and lists kept, intrinsic functions replaced by their values
     * (a {@code Ref} to a list parameter by the list of its values), {@code Fn::If} by its branch.
     */
    public static Object resolveAll(Object node, SamTemplate template, Map<String, String> localNames, String where) {
        return resolveDeployed(template.applyConditions(node, where), template, localNames, where);
    }

    private static Object resolveDeployed(Object node, SamTemplate template, Map<String, String> localNames, String where) {
        if (node instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.get("Ref") instanceof String ref && template.parameters().get(ref) instanceof Map<?, ?> parameter
                    && String.valueOf(parameter.get("Type")).matches("CommaDelimitedList|List<.*>")) {
                // a list parameter's Ref is the list of its comma-separated values
                return List.of(ref(ref, template, localNames, where).split(",", -1)).stream().map(String::trim).toList();
            }
            if (map.size() == 1 && (map.containsKey("Ref") || map.containsKey("Fn::GetAtt") || map.containsKey("Fn::Sub"))) {
                return resolve(map, template, localNames, where);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put((String) k, resolveDeployed(v, template, localNames, where + "." + k)));
            return out;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(v -> resolveDeployed(v, template, localNames, where)).toList();
        }
        return node;
    }

    private static String ref(String ref, SamTemplate template, Map<String, String> localNames, String where) {
        if (localNames.containsKey(ref)) {
            return localNames.get(ref);
        }
        if (PSEUDO_PARAMETERS.containsKey(ref)) {
            return PSEUDO_PARAMETERS.get(ref);
        }
        Object parameter = template.parameters().get(ref);
        if (parameter instanceof Map<?, ?> p && p.containsKey("Default")) {
            return String.valueOf(p.get("Default"));
        }
        throw new IllegalArgumentException(where + ": !Ref " + ref + " names no local resource, parameter with a default or pseudo parameter");
    }

    private static String attribute(String logicalId, String attribute, SamTemplate template, Map<String, String> localNames,
                                    String where) {
        String name = localNames.get(logicalId);
        if (name == null || !template.resources().containsKey(logicalId)) {
            throw new IllegalArgumentException(where + ": !GetAtt " + logicalId + "." + attribute + " names no local resource");
        }
        String type = template.typeOf(logicalId);
        String arn = switch (type) {
            case "AWS::DynamoDB::Table" -> "arn:aws:dynamodb:us-east-1:" + LOCAL_ACCOUNT + ":table/" + name;
            case "AWS::Events::EventBus" -> "arn:aws:events:us-east-1:" + LOCAL_ACCOUNT + ":event-bus/" + name;
            case "AWS::Events::Rule" -> "arn:aws:events:us-east-1:" + LOCAL_ACCOUNT + ":rule/" + name;
            case "AWS::SQS::Queue" -> "arn:aws:sqs:us-east-1:" + LOCAL_ACCOUNT + ":" + name;
            case "AWS::SNS::Topic" -> "arn:aws:sns:us-east-1:" + LOCAL_ACCOUNT + ":" + name;
            case "AWS::Serverless::Function", "AWS::Lambda::Function" -> "arn:aws:lambda:us-east-1:" + LOCAL_ACCOUNT + ":function:" + name;
            case "AWS::IAM::Role" -> "arn:aws:iam::" + LOCAL_ACCOUNT + ":role/" + name;
            case "AWS::Kinesis::Stream" -> "arn:aws:kinesis:us-east-1:" + LOCAL_ACCOUNT + ":stream/" + name;
            // an enhanced fan-out consumer's ARN is its stream's with /consumer/<name>:<creation time>
            case "AWS::Kinesis::StreamConsumer" -> resolve(template.properties(logicalId).get("StreamARN"), template, localNames,
                    logicalId + ".StreamARN") + "/consumer/" + name + ":0";
            default -> throw new IllegalArgumentException(where + ": no local ARN for a " + type);
        };
        return switch (attribute) {
            case "Arn", "ConsumerARN" -> arn;
            case "StreamArn" -> arn + "/stream/local";
            case "QueueName", "Name" -> name;
            default -> throw new IllegalArgumentException(where + ": attribute " + attribute + " of " + logicalId + " is not known locally");
        };
    }

    private static String describe(Object value) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            return "intrinsic " + map.keySet().iterator().next();
        }
        return value instanceof List<?> ? "a list" : String.valueOf(value);
    }
}
