package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What can be checked of the deployment without AWS: the template parses, every reference resolves,
 * every function's artifact exists where its CodeUri points and names a handler class that exists, and
 * every stream event source keeps the failure semantics. Run after 'mvn package' (the README's
 * 'mvn verify' does), since CodeUri points at built jars.
 */
class TemplateDeploymentTest {

    private static final Set<String> PSEUDO_PARAMETERS = Set.of("AWS::AccountId", "AWS::NotificationARNs", "AWS::NoValue",
            "AWS::Partition", "AWS::Region", "AWS::StackId", "AWS::StackName", "AWS::URLSuffix");
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!]+)}");

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void everyReference_namesAResourceParameterOrPseudoParameter() {
        Set<String> known = new java.util.HashSet<>(template.resources().keySet());
        known.addAll(template.parameters().keySet());
        known.addAll(PSEUDO_PARAMETERS);
        // SAM's reference to the alias it publishes for a function with AutoPublishAlias
        template.resources().keySet().stream().filter(id -> template.properties(id).get("AutoPublishAlias") != null)
                .forEach(function -> known.add(function + ".Alias"));
        List<String> references = new ArrayList<>();
        collect(template.root(), references);

        assertThat(references).isNotEmpty();
        assertThat(references).allSatisfy(ref -> assertThat(known).as("reference %s", ref).contains(ref));
    }

    /**
     * Every condition a resource, an output, an {@code !If} or another condition names is declared, and every
     * declared condition evaluates over the parameters' defaults (a deploy with no parameters given).
     */
    @Test
    void everyConditionNamed_isDeclared_andEvaluatesOverTheDefaults() {
        Set<String> declared = map(template.root().get("Conditions"), "Conditions").keySet();
        List<String> named = new ArrayList<>();
        for (String section : List.of("Resources", "Outputs")) {
            map(template.root().get(section), section).values().forEach(entry -> {
                if (map(entry, section).get("Condition") instanceof String condition) {
                    named.add(condition);
                }
            });
        }
        collectConditions(template.root(), named);

        assertThat(named).contains("CreateAppTable", "HasStreamIndexerFilter", "HasAlarmEmail", "DriftCheckRepairs")
                .allSatisfy(condition -> assertThat(declared).as("condition %s", condition).contains(condition));
        assertThat(template.conditions()).containsOnlyKeys(declared).containsEntry("CreateAppTable", true);
        template.checkRules();
    }

    /**
     * The template's functions are exactly the four whose deployable jars the build proves (each module's
     * {@code *JarIT}, in verify: the jar at its CodeUri, its size, what it holds, and its handler run from it
     * alone); a new function needs its own.
     */
    @Test
    void everyFunction_isADeployableJarTheBuildProves() {
        Map<String, String> codeUris = new java.util.TreeMap<>();
        // as deployed with the default parameters (StreamReaders two); StreamReadersTemplateTest checks the one-reader mode
        SamTemplate deployed = template.deployed();
        for (String function : deployed.resourcesOfType("AWS::Serverless::Function")) {
            Map<String, Object> properties = deployed.properties(function);
            codeUris.put(function, (String) properties.get("CodeUri"));
            assertThat((String) properties.get("Handler")).as("%s Handler", function).matches("com\\.multikey\\.[\\w.]+::handleRequest");
            assertThat(TemplateEnvironment.of(template, function, tableNames())).isNotEmpty();
        }
        assertThat(codeUris).containsExactlyInAnyOrderEntriesOf(Map.of(
                "StreamIndexerFunction", "stream-indexer/target/stream-indexer.jar",
                "RouterFunction", "router/target/router.jar",
                "DeleteLayerFunction", "delete-layer/target/delete-layer.jar",
                "ReindexWorkerFunction", "reindex-worker/target/reindex-worker.jar",
                "RedriveFunction", "redrive/target/redrive.jar",
                "QueryFunction", "query-api/target/query-api.jar"));
        Map<String, Object> globals = map(map(template.root().get("Globals"), "Globals").get("Function"), "Globals.Function");
        assertThat(globals.get("Runtime")).isEqualTo("java21");
    }

    @Test
    void everyStreamEventSource_reportsPartialFailures_andBoundsRetries() {
        int sources = 0;
        // as deployed with the default parameters: the DynamoDB stream's mappings
        SamTemplate deployed = template.deployed();
        assertThat(template.resourcesOfType("AWS::Serverless::Function"))
                .allSatisfy(function -> assertThat(template.properties(function)).as(function).doesNotContainKey("Events"));
        for (String mapping : deployed.resourcesOfType("AWS::Lambda::EventSourceMapping")) {
            sources++;
            Map<String, Object> properties = deployed.properties(mapping);
            assertThat(properties.get("FunctionResponseTypes")).isEqualTo(List.of("ReportBatchItemFailures"));
            assertThat(properties.get("BisectBatchOnFunctionError")).isEqualTo(true);
            assertThat(properties).containsKeys("MaximumRetryAttempts", "MaximumRecordAgeInSeconds", "DestinationConfig");
        }
        // every mapping of every mode (the Kinesis ones too) keeps the same failure semantics
        assertThat(template.resourcesOfType("AWS::Lambda::EventSourceMapping")).hasSize(4).allSatisfy(mapping -> {
            Map<String, Object> properties = template.properties(mapping);
            assertThat(properties.get("FunctionResponseTypes")).as(mapping).isEqualTo(List.of("ReportBatchItemFailures"));
            assertThat(properties).as(mapping).containsEntry("BisectBatchOnFunctionError", true)
                    .containsKeys("MaximumRetryAttempts", "MaximumRecordAgeInSeconds", "DestinationConfig");
        });
        assertThat(sources).as("a stream shard serves at most two readers: the indexer and the router").isEqualTo(2);
    }

    @Test
    void everyRole_grantsNamedActionsOnNamedResources_only() {
        for (String role : template.resourcesOfType("AWS::IAM::Role")) {
            List<Map<String, Object>> statements = statements(role);
            assertThat(statements).as(role).isNotEmpty().allSatisfy(statement -> {
                assertThat(statement.get("Resource")).as("%s %s", role, statement.get("Sid")).isNotEqualTo("*");
                assertThat(String.valueOf(statement.get("Action"))).as("%s %s", role, statement.get("Sid")).doesNotContain("*");
            });
        }
        assertThat(statement("RouterRole", "PutEventsOnTheAppBus").get("Resource"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of("AppEventBus", "Arn")));
        assertThat(statements("RouterRole")).extracting(s -> s.get("Sid"))
                .containsExactlyInAnyOrder("Logs", "ReadAppTableStream", "PutEventsOnTheAppBus", "OnFailureDestination");
        assertThat(statement("DeleteLayerRole", "DeleteOwnLayerVersions").get("Resource")).isEqualTo(
                Map.of("Fn::Sub", "arn:${AWS::Partition}:lambda:*:${AWS::AccountId}:layer:${LayerNamePrefix}*:*"));
        assertThat(statement("ReindexWorkerRole", "InvokeItself").get("Resource")).as("its own ARN by name: a !GetAtt would be circular")
                .isEqualTo(Map.of("Fn::Sub", "arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:${AWS::StackName}-reindex-worker"));
        assertThat(template.properties("ReindexWorkerFunction").get("FunctionName"))
                .isEqualTo(Map.of("Fn::Sub", "${AWS::StackName}-reindex-worker"));
        assertThat(statements("ReindexWorkerRole")).extracting(s -> s.get("Sid")).containsExactlyInAnyOrder("Logs", "ReadAppTable",
                "ReadAndWriteIndexTable", "JobsAndCheckpoints", "InvokeItself", "OnFailureDestination");
        Map<String, Object> tombstones = statement("DeleteLayerRole", "WriteLayerTombstones");
        assertThat(tombstones.get("Action")).isEqualTo("dynamodb:PutItem");
        assertThat(TemplateEnvironment.resolveAll(tombstones.get("Condition"), template, tableNames(), "WriteLayerTombstones").toString())
                .contains("dynamodb:LeadingKeys=[layer#*]");
        assertThat(TemplateEnvironment.resolveAll(statement("RedriveRole", "ReadIssuesAndConditionOnThem").get("Condition"), template,
                tableNames(), "ReadIssuesAndConditionOnThem").toString()).contains("dynamodb:LeadingKeys=[issue#*]");
    }

    @Test
    void reindexWorker_retriesBoundedly_toAnAlarmedFailureQueue_andTheOutputsNameWhatToStart() {
        Map<String, Object> worker = template.properties("ReindexWorkerFunction");
        Map<String, Object> invokeConfig = map(worker.get("EventInvokeConfig"), "EventInvokeConfig");
        assertThat(invokeConfig).containsKeys("MaximumRetryAttempts", "MaximumEventAgeInSeconds");
        assertThat(String.valueOf(invokeConfig.get("DestinationConfig"))).contains("ReindexWorkerFailureQueue");
        assertThat(worker).containsKeys("ReservedConcurrentExecutions", "MemorySize", "Timeout");
        assertThat(template.resourcesOfType("AWS::CloudWatch::Alarm")).anySatisfy(alarm ->
                assertThat(String.valueOf(template.properties(alarm).get("Dimensions"))).contains("ReindexWorkerFailureQueue"));
        Map<String, Object> outputs = map(template.root().get("Outputs"), "Outputs");
        assertThat(map(outputs.get("ReindexWorkerFunctionName"), "output").get("Value")).isEqualTo(Map.of("Ref", "ReindexWorkerFunction"));
        assertThat(map(outputs.get("ReindexJobsTableName"), "output").get("Value")).isEqualTo(Map.of("Ref", "ReindexJobsTable"));
    }

    @Test
    void layerExpiredRule_targetsDeleteLayer_withRetriesADeadLetterQueueAndAnAlarm() {
        Map<String, Object> rule = template.properties("LayerExpiredRule");
        assertThat(rule.get("EventBusName")).isEqualTo(Map.of("Ref", "AppEventBus"));
        @SuppressWarnings("unchecked")
        Map<String, Object> target = ((List<Map<String, Object>>) rule.get("Targets")).get(0);
        assertThat(target.get("Arn")).isEqualTo(Map.of("Fn::GetAtt", List.of("DeleteLayerFunction", "Arn")));
        assertThat(map(target.get("RetryPolicy"), "RetryPolicy")).containsKeys("MaximumRetryAttempts", "MaximumEventAgeInSeconds");
        assertThat(map(target.get("DeadLetterConfig"), "DeadLetterConfig").get("Arn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of("DeleteLayerDeadLetterQueue", "Arn")));
        assertThat(template.resourcesOfType("AWS::CloudWatch::Alarm")).anySatisfy(alarm ->
                assertThat(String.valueOf(template.properties(alarm).get("Dimensions"))).contains("DeleteLayerDeadLetterQueue"));
        assertThat(map(template.properties("DeleteLayerFunction").get("DeadLetterQueue"), "DeadLetterQueue"))
                .as("events delete-layer itself failed on land where the rule's undeliverable ones do")
                .containsEntry("Type", "SQS").containsEntry("TargetArn", Map.of("Fn::GetAtt", List.of("DeleteLayerDeadLetterQueue", "Arn")));
        assertThat(template.properties("DeleteLayerInvokePermission").get("SourceArn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of("LayerExpiredRule", "Arn")));
    }

    @Test
    void readApi_readsTheTwoTablesOnly_andEveryRouteIsAuthorized_byIamOrTheJwtAuthorizer() {
        // the query function's role: the cursor keys' secret, reads of the index table and of the app table and its ByProject
        // index, no writes
        assertThat(statements("QueryRole")).extracting(s -> s.get("Sid"))
                .containsExactly("Logs", "ReadCursorKeys", "ReadIndexTable", "ReadAppTable");
        // Query for pages; GetItem and Scan for the grid layout's control item and the once-per-stack scan that finds the layout
        assertThat(statement("QueryRole", "ReadIndexTable").get("Action")).isEqualTo(List.of("dynamodb:Query", "dynamodb:GetItem", "dynamodb:Scan"));
        assertThat(statement("QueryRole", "ReadAppTable").get("Action"))
                .isEqualTo(List.of("dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:Query"));
        // six routes, each behind IAM or the JWT authorizer, never open
        List<String> routes = template.resourcesOfType("AWS::ApiGatewayV2::Route");
        assertThat(routes).extracting(route -> template.properties(route).get("RouteKey")).containsExactlyInAnyOrder(
                "GET /v1/grid", "GET /v1/indexes", "GET /v1/indexes/{index}/items", "GET /openapi.json", "GET /v1/grid/facets",
                "GET /v1/indexes/{index}/facets");
        assertThat(routes).allSatisfy(route -> assertThat(template.properties(route).get("AuthorizationType"))
                .isEqualTo(Map.of("Fn::If", List.of("QueryApiJwt", "JWT", "AWS_IAM"))));
        // the managed policy callers attach: execute-api:Invoke on this API's GET routes only
        Map<String, Object> invoke = map(((List<?>) map(template.properties("QueryApiInvokePolicy").get("PolicyDocument"), "document")
                .get("Statement")).get(0), "statement");
        assertThat(invoke.get("Action")).isEqualTo("execute-api:Invoke");
        assertThat(invoke.get("Resource").toString()).contains("${QueryHttpApi}/$default/GET/*");
        assertThat(template.root().get("Outputs").toString()).contains("QueryApiUrl").contains("QueryApiInvokePolicyArn");
    }

    @Test
    void cursorKeys_areASecretTheStackGenerates_thatTheQueryRoleAloneMayRead_andTheQueryFunctionIsGiven() {
        // given
        List<String> secrets = template.resourcesOfType("AWS::SecretsManager::Secret");
        Map<String, Object> generate = map(template.properties("CursorKeySecret").get("GenerateSecretString"), "GenerateSecretString");

        // then: one secret, generated (never in the template): {"id":"1","key":<64 letters and digits>}
        assertThat(secrets).containsExactly("CursorKeySecret");
        assertThat(template.properties("CursorKeySecret")).doesNotContainKey("SecretString");
        assertThat(generate).containsEntry("SecretStringTemplate", "{\"id\":\"1\"}").containsEntry("GenerateStringKey", "key")
                .containsEntry("PasswordLength", 64).containsEntry("ExcludePunctuation", true);
        // the query role may GetSecretValue on that secret alone; no other role may read it
        assertThat(statement("QueryRole", "ReadCursorKeys").get("Action")).isEqualTo("secretsmanager:GetSecretValue");
        assertThat(statement("QueryRole", "ReadCursorKeys").get("Resource")).isEqualTo(Map.of("Ref", "CursorKeySecret"));
        assertThat(statement("QueryRole", "ReadCursorKeys")).doesNotContainKey("Condition");
        for (String role : template.resourcesOfType("AWS::IAM::Role")) {
            List<Map<String, Object>> reading = statements(role).stream()
                    .filter(s -> String.valueOf(s.get("Action")).contains("secretsmanager")
                            || String.valueOf(s.get("Resource")).contains("CursorKeySecret")).toList();
            assertThat(reading).as(role).hasSize(role.equals("QueryRole") ? 1 : 0);
        }
        // the function is told where the keys are and how long a cursor lives
        Map<String, Object> variables = map(map(template.properties("QueryFunction").get("Environment"), "Environment").get("Variables"),
                "Variables");
        assertThat(variables).containsEntry("CURSOR_KEY_SECRET_ARN", Map.of("Ref", "CursorKeySecret"))
                .containsEntry("CURSOR_LIFETIME_SECONDS", Map.of("Ref", "QueryApiCursorLifetimeSeconds"));
        assertThat(map(template.parameters().get("QueryApiCursorLifetimeSeconds"), "parameter"))
                .containsEntry("Default", 86400).containsEntry("MinValue", 60).containsEntry("MaxValue", 2592000);
    }

    private Map<String, Object> statement(String role, String sid) {
        return statements(role).stream().filter(s -> sid.equals(s.get("Sid"))).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> statements(String role) {
        // as deployed with the default parameters (StreamSource dynamodb, StreamReaders two); StreamSourceTemplateTest and
        // StreamReadersTemplateTest check the statements of the other modes
        List<Map<String, Object>> statements = new ArrayList<>();
        for (Map<String, Object> policy : (List<Map<String, Object>>) template.deployed().properties(role).get("Policies")) {
            statements.addAll((List<Map<String, Object>>) map(policy.get("PolicyDocument"), "PolicyDocument").get("Statement"));
        }
        return statements;
    }

    private Map<String, String> tableNames() {
        Map<String, String> names = new HashMap<>();
        template.resources().keySet().forEach(id -> names.put(id, id));
        return names;
    }

    /** The conditions {@code Fn::If} and {@code Condition} (inside a condition) name below {@code node}. */
    private static void collectConditions(Object node, List<String> conditions) {
        if (node instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.get("Fn::If") instanceof List<?> parts) {
                conditions.add((String) parts.get(0));
            }
            if (map.size() == 1 && map.get("Condition") instanceof String condition) {
                conditions.add(condition);
            }
            map.values().forEach(value -> collectConditions(value, conditions));
        } else if (node instanceof List<?> list) {
            list.forEach(element -> collectConditions(element, conditions));
        }
    }

    private static void collect(Object node, List<String> references) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                if ("Ref".equals(key) && value instanceof String ref) {
                    references.add(ref);
                } else if ("Fn::GetAtt".equals(key) && value instanceof List<?> parts) {
                    references.add((String) parts.get(0));
                } else if ("Fn::Sub".equals(key)) {
                    String text = value instanceof List<?> list ? (String) list.get(0) : (String) value;
                    Set<?> own = value instanceof List<?> list ? map(list.get(1), "Fn::Sub variables").keySet() : Set.of();
                    Matcher matcher = SUB_VARIABLE.matcher(text);
                    while (matcher.find()) {
                        String variable = matcher.group(1).split("\\.")[0];
                        if (!own.contains(variable)) {
                            references.add(variable);
                        }
                    }
                }
                collect(value, references);
            });
        } else if (node instanceof List<?> list) {
            list.forEach(element -> collect(element, references));
        }
    }
}
