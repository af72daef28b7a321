package com.multikey.emulator.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The routes of one {@code AWS::ApiGatewayV2::Api} (protocol HTTP) of the deployed template, as API Gateway matches
 * them: each {@code AWS::ApiGatewayV2::Route} of the API with its route key ({@code GET /v1/indexes/{index}/items}),
 * the function its {@code AWS_PROXY} integration (payload format 2.0) invokes, and how it authorizes callers
 * ({@code NONE}, {@code AWS_IAM} or {@code JWT} with the issuer and audiences of its authorizer).
 */
public record HttpApiRoutes(String api, List<Route> routes) {

    public static final String API_TYPE = "AWS::ApiGatewayV2::Api";

    /** How a route authorizes a request. */
    public sealed interface Authorization {
    }

    /** {@code AuthorizationType: NONE}. */
    public record Open() implements Authorization {
    }

    /** {@code AuthorizationType: AWS_IAM}: a SigV4 signature for the service {@code execute-api}. */
    public record Iam() implements Authorization {
    }

    /** {@code AuthorizationType: JWT}: a bearer token signed by the issuer, for one of the audiences. */
    public record Jwt(String issuer, List<String> audiences) implements Authorization {
        public Jwt {
            audiences = List.copyOf(audiences);
        }
    }

    /** One route: its key, what it matches, the function its integration invokes, its authorization. */
    public record Route(String routeKey, String method, Pattern path, List<String> pathParameters, String function,
                        Authorization authorization) {

        /** The path parameters of {@code rawPath} when this route matches it. */
        public Optional<Map<String, String>> match(String requestMethod, String rawPath) {
            if (!method.equals("ANY") && !method.equals(requestMethod)) {
                return Optional.empty();
            }
            Matcher matcher = path.matcher(rawPath);
            if (!matcher.matches()) {
                return Optional.empty();
            }
            Map<String, String> parameters = new java.util.LinkedHashMap<>();
            for (int i = 0; i < pathParameters.size(); i++) {
                parameters.put(pathParameters.get(i), matcher.group(i + 1));
            }
            return Optional.of(parameters);
        }
    }

    public HttpApiRoutes {
        routes = List.copyOf(routes);
    }

    private static final Pattern ROUTE_KEY = Pattern.compile("(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ANY) (/\\S*)");
    private static final Pattern PATH_VARIABLE = Pattern.compile("\\{([A-Za-z0-9_]+)(\\+?)}");
    private static final Pattern INTEGRATION_TARGET = Pattern.compile("integrations/\\$\\{([A-Za-z0-9]+)}");

    /** The routes of the HTTP API {@code api} in {@code deployed} (a template as {@link SamTemplate#deployed()} gives it). */
    public static HttpApiRoutes of(SamTemplate deployed, String api, Map<String, String> names) {
        if (!deployed.resources().containsKey(api) || !API_TYPE.equals(deployed.typeOf(api))) {
            throw new TemplateException("template has no " + API_TYPE + " '" + api + "'");
        }
        if (!"HTTP".equals(deployed.properties(api).get("ProtocolType"))) {
            throw new TemplateException(api + ".ProtocolType: only HTTP APIs are emulated");
        }
        List<Route> routes = new ArrayList<>();
        for (String id : deployed.resourcesOfType("AWS::ApiGatewayV2::Route")) {
            Map<String, Object> properties = deployed.properties(id);
            if (!Map.of("Ref", api).equals(properties.get("ApiId"))) {
                continue;
            }
            routes.add(route(deployed, id, properties, names));
        }
        if (routes.isEmpty()) {
            throw new TemplateException(api + " has no routes");
        }
        return new HttpApiRoutes(api, routes);
    }

    /** The HTTP APIs of {@code deployed}, by logical id. */
    public static List<String> apis(SamTemplate deployed) {
        return deployed.resourcesOfType(API_TYPE);
    }

    /** The route API Gateway picks for a request: the one matching it with the most literal path segments first. */
    public Optional<Route> route(String method, String rawPath) {
        return routes.stream().filter(route -> route.match(method, rawPath).isPresent())
                .max(java.util.Comparator.comparingInt((Route route) -> literalSegments(route.routeKey()))
                        .thenComparing(route -> !route.method().equals("ANY")));
    }

    private static int literalSegments(String routeKey) {
        return (int) java.util.Arrays.stream(routeKey.split(" ", 2)[1].split("/")).filter(s -> !s.startsWith("{")).count();
    }

    private static Route route(SamTemplate deployed, String id, Map<String, Object> properties, Map<String, String> names) {
        String key = TemplateEnvironment.resolve(properties.get("RouteKey"), deployed, names, id + ".RouteKey");
        Matcher routeKey = ROUTE_KEY.matcher(key);
        if (!routeKey.matches()) {
            throw new TemplateException(id + ".RouteKey must look like 'GET /path/{parameter}', got '" + key + "'");
        }
        StringBuilder regex = new StringBuilder();
        List<String> parameters = new ArrayList<>();
        Matcher variable = PATH_VARIABLE.matcher(routeKey.group(2));
        int last = 0;
        while (variable.find()) {
            regex.append(Pattern.quote(routeKey.group(2).substring(last, variable.start())));
            regex.append(variable.group(2).isEmpty() ? "([^/]+)" : "(.+)");
            parameters.add(variable.group(1));
            last = variable.end();
        }
        regex.append(Pattern.quote(routeKey.group(2).substring(last)));
        String function = integrationFunction(deployed, id, properties.get("Target"));
        Object type = properties.getOrDefault("AuthorizationType", "NONE");
        Authorization authorization = switch (String.valueOf(type)) {
            case "NONE" -> new Open();
            case "AWS_IAM" -> new Iam();
            case "JWT" -> jwt(deployed, id, properties.get("AuthorizerId"), names);
            default -> throw new TemplateException(id + ".AuthorizationType: NONE, AWS_IAM or JWT, got " + type);
        };
        return new Route(key, routeKey.group(1), Pattern.compile(regex.toString()), parameters, function, authorization);
    }

    private static String integrationFunction(SamTemplate deployed, String route, Object target) {
        String text = target instanceof Map<?, ?> sub && sub.get("Fn::Sub") instanceof String s ? s : String.valueOf(target);
        Matcher matcher = INTEGRATION_TARGET.matcher(text);
        if (!matcher.matches() || !deployed.resources().containsKey(matcher.group(1))) {
            throw new TemplateException(route + ".Target must be !Sub integrations/${Integration}, got " + target);
        }
        String integration = matcher.group(1);
        Map<String, Object> properties = deployed.properties(integration);
        if (!"AWS_PROXY".equals(properties.get("IntegrationType")) || !"2.0".equals(String.valueOf(properties.get("PayloadFormatVersion")))) {
            throw new TemplateException(integration + ": only AWS_PROXY integrations with PayloadFormatVersion 2.0 are emulated");
        }
        if (properties.get("IntegrationUri") instanceof Map<?, ?> uri && uri.get("Fn::GetAtt") instanceof List<?> attribute
                && attribute.size() == 2 && "Arn".equals(attribute.get(1))) {
            return String.valueOf(attribute.get(0));
        }
        // the alias SAM publishes for a function with AutoPublishAlias (locally, the function itself)
        if (properties.get("IntegrationUri") instanceof Map<?, ?> uri && uri.size() == 1 && uri.get("Ref") instanceof String ref
                && ref.endsWith(".Alias") && deployed.resources().containsKey(ref.substring(0, ref.length() - ".Alias".length()))
                && deployed.properties(ref.substring(0, ref.length() - ".Alias".length())).get("AutoPublishAlias") != null) {
            return ref.substring(0, ref.length() - ".Alias".length());
        }
        throw new TemplateException(integration + ".IntegrationUri must be !GetAtt Function.Arn or !Ref Function.Alias (AutoPublishAlias)");
    }

    private static Jwt jwt(SamTemplate deployed, String route, Object authorizerId, Map<String, String> names) {
        if (!(authorizerId instanceof Map<?, ?> ref) || !(ref.get("Ref") instanceof String authorizer)
                || !deployed.resources().containsKey(authorizer)) {
            throw new TemplateException(route + ": AuthorizationType JWT needs AuthorizerId: !Ref an authorizer of the template");
        }
        Object resolved = TemplateEnvironment.resolveAll(deployed.properties(authorizer).get("JwtConfiguration"), deployed, names,
                authorizer + ".JwtConfiguration");
        if (!(resolved instanceof Map<?, ?> configuration) || !(configuration.get("Issuer") instanceof String issuer)
                || !(configuration.get("Audience") instanceof List<?> audiences) || issuer.isEmpty() || audiences.isEmpty()) {
            throw new TemplateException(authorizer + ".JwtConfiguration needs an Issuer and an Audience");
        }
        return new Jwt(issuer, audiences.stream().map(String::valueOf).toList());
    }
}
