package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateException;
import com.multikey.emulator.template.TemplateTables;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * template.yaml with and without an existing table ({@code ExistingTableName}, {@code ExistingTableStreamArn}): by
 * default the stack creates {@code AppTable} and uses it; given a table it creates none and every function, event
 * source and IAM statement uses that table and its stream instead, and nothing else.
 */
class ExistingTableTemplateTest {

    private static final String EXISTING = "orders";
    private static final String EXISTING_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/" + EXISTING;
    private static final String EXISTING_STREAM = EXISTING_ARN + "/stream/2026-11-24T00:00:00.000";
    private static final String APP_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/AppTable";
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!]+)}");

    private final SamTemplate repository = SamTemplate.ofRepository();
    private final SamTemplate existing = repository.withParameterOverrides(
            Map.of("ExistingTableName", EXISTING, "ExistingTableStreamArn", EXISTING_STREAM));

    @Test
    void deployed_byDefault_createsAppTable_andEveryFunctionUsesIt() {
        // given
        SamTemplate deployed = repository.deployed();

        // when
        Map<String, String> appTableNames = appTableNames(deployed);

        // then
        assertThat(repository.conditions()).containsEntry("CreateAppTable", true).containsEntry("HasStreamIndexerFilter", true);
        assertThat(deployed.resourcesOfType(TemplateTables.TABLE_TYPE)).contains("AppTable");
        assertThat(appTableNames).containsOnlyKeys("StreamIndexerFunction", "DeleteLayerFunction", "ReindexWorkerFunction", "RedriveFunction",
                        "QueryFunction")
                .allSatisfy((function, name) -> assertThat(name).as(function).isEqualTo("AppTable"));
        assertThat(TemplateEnvironment.of(deployed, "RouterFunction", names(deployed))).containsEntry("TABLE_ARN", APP_ARN);
        assertThat(streams(deployed)).containsOnlyKeys("StreamIndexerFunction", "RouterFunction")
                .allSatisfy((function, stream) -> assertThat(stream).isEqualTo(Map.of("Fn::GetAtt", List.of("AppTable", "StreamArn"))));
        assertThat(output(deployed, "AppTableName")).isEqualTo("AppTable");
    }

    @Test
    void deployed_withAnExistingTable_createsNoAppTable_andEveryFunctionAndStreamUsesTheGivenTable() {
        // given
        SamTemplate deployed = existing.deployed();

        // when
        Map<String, String> appTableNames = appTableNames(deployed);

        // then
        assertThat(existing.conditions()).containsEntry("CreateAppTable", false);
        assertThat(deployed.resources()).doesNotContainKey("AppTable");
        assertThat(deployed.resourcesOfType(TemplateTables.TABLE_TYPE)).containsExactlyInAnyOrder("IssueAttribIndexTable", "ReindexJobsTable");
        assertThat(appTableNames).containsOnlyKeys("StreamIndexerFunction", "DeleteLayerFunction", "ReindexWorkerFunction", "RedriveFunction",
                        "QueryFunction")
                .allSatisfy((function, name) -> assertThat(name).as(function).isEqualTo(EXISTING));
        assertThat(TemplateEnvironment.of(deployed, "RouterFunction", names(deployed))).containsEntry("TABLE_ARN", EXISTING_ARN);
        assertThat(streams(deployed)).containsOnlyKeys("StreamIndexerFunction", "RouterFunction").allSatisfy((function, stream) ->
                assertThat(TemplateEnvironment.resolve(stream, deployed, names(deployed), function)).isEqualTo(EXISTING_STREAM));
        assertThat(output(deployed, "AppTableName")).isEqualTo(EXISTING);
    }

    @Test
    void deployed_inBothCases_refersOnlyToResourcesItCreates() {
        for (SamTemplate template : List.of(repository, existing)) {
            // given
            SamTemplate deployed = template.deployed();
            Set<String> known = new TreeSet<>(deployed.resources().keySet());
            known.addAll(deployed.parameters().keySet());
            known.addAll(TemplateEnvironment.PSEUDO_PARAMETERS.keySet());
            // SAM's reference to the alias it publishes for a function with AutoPublishAlias
            deployed.resources().keySet().stream().filter(id -> deployed.properties(id).get("AutoPublishAlias") != null)
                    .forEach(function -> known.add(function + ".Alias"));

            // when
            List<String> references = new ArrayList<>();
            collectReferences(deployed.root().get("Resources"), references);
            collectReferences(deployed.root().get("Outputs"), references);

            // then
            assertThat(references).isNotEmpty().allSatisfy(reference -> assertThat(known).as("reference %s", reference).contains(reference));
            assertThat(deployed.root().toString()).doesNotContain("Fn::If");
        }
    }

    /**
     * Least privilege in both cases: each IAM statement on DynamoDB names the stack's own index and jobs tables, or the
     * one app table (created or given) or its streams; the same statements do in both cases, the app table swapped.
     */
    @Test
    void roles_inBothCases_grantTheAppTableAndItsStreamOnly() {
        // given
        Map<String, Set<String>> created = dynamoDbResources(repository);
        Map<String, Set<String>> given = dynamoDbResources(existing);

        // then
        assertThat(created.keySet()).isEqualTo(given.keySet());
        Set<String> appStatements = new TreeSet<>();
        created.forEach((statement, resources) -> {
            Set<String> swapped = new TreeSet<>();
            resources.forEach(resource -> swapped.add(resource.startsWith(APP_ARN + "/") || resource.equals(APP_ARN)
                    ? EXISTING_ARN + resource.substring(APP_ARN.length()) : resource));
            assertThat(given.get(statement)).as(statement).isEqualTo(swapped);
            if (!swapped.equals(resources)) {
                appStatements.add(statement);
            }
        });
        assertThat(given.values()).allSatisfy(resources -> assertThat(resources).allSatisfy(resource -> assertThat(resource)
                .matches(r -> r.equals(EXISTING_ARN) || r.equals(EXISTING_ARN + "/stream/*") || r.equals(EXISTING_ARN + "/index/ByProject")
                        || r.endsWith(":table/IssueAttribIndexTable") || r.endsWith(":table/ReindexJobsTable"), "a table of the stack or the given one")));
        assertThat(appStatements).containsExactlyInAnyOrder("StreamIndexerRole.ReadAppTableStream", "RouterRole.ReadAppTableStream",
                "DeleteLayerRole.WriteLayerTombstones", "ReindexWorkerRole.ReadAppTable", "RedriveRole.ReadBackAppTableStream",
                "RedriveRole.ReadIssuesAndConditionOnThem", "QueryRole.ReadAppTable");
    }

    @Test
    void leadingKeys_ofRedriveAndDeleteLayer_followTheirParameters_theIssueGridsByDefault() {
        // given
        SamTemplate singleTable = existing.withParameterOverrides(Map.of("IndexedItemKeyPatterns", "PROJECT#*", "LayerKeyPatterns", "lyr#*,layer#*"));

        // when
        String byDefault = leadingKeys(repository, "RedriveRole", "ReadIssuesAndConditionOnThem") + " "
                + leadingKeys(repository, "DeleteLayerRole", "WriteLayerTombstones");
        String given = leadingKeys(singleTable, "RedriveRole", "ReadIssuesAndConditionOnThem") + " "
                + leadingKeys(singleTable, "DeleteLayerRole", "WriteLayerTombstones");

        // then
        assertThat(byDefault).isEqualTo("[issue#*] [layer#*]");
        assertThat(given).isEqualTo("[PROJECT#*] [lyr#*, layer#*]");
    }

    @Test
    void withParameterOverrides_whenOnlyOneOfTheTwoIsGiven_isRefusedByTheTemplatesRules() {
        assertThatThrownBy(() -> repository.withParameterOverrides(Map.of("ExistingTableName", EXISTING)))
                .isInstanceOf(TemplateException.class).hasMessageContaining("ExistingTableName needs ExistingTableStreamArn");
        assertThatThrownBy(() -> repository.withParameterOverrides(Map.of("ExistingTableStreamArn", EXISTING_STREAM)))
                .isInstanceOf(TemplateException.class).hasMessageContaining("ExistingTableStreamArn is given only with ExistingTableName");
        assertThatThrownBy(() -> repository.withParameterOverrides(Map.of("ExistingTableName", EXISTING, "ExistingTableStreamArn", EXISTING_ARN)))
                .as("a table ARN is not a stream ARN").isInstanceOf(TemplateException.class).hasMessageContaining("does not match");
    }

    @Test
    void streamIndexerFilter_whenThePatternIsEmpty_isLeftOut_andOtherwiseIsThePattern() {
        // given
        SamTemplate unfiltered = existing.withParameterOverrides(Map.of("StreamIndexerFilterPattern", ""));
        String pattern = "{\"dynamodb\": {\"Keys\": {\"sk\": {\"S\": [{\"prefix\": \"ISSUE#\"}]}}}}";
        SamTemplate filtered = existing.withParameterOverrides(Map.of("StreamIndexerFilterPattern", pattern));

        // when
        Map<String, Object> none = indexerEvent(unfiltered.deployed());
        Map<String, Object> some = indexerEvent(filtered.deployed());

        // then
        assertThat(none).doesNotContainKey("FilterCriteria").containsKey("EventSourceArn");
        assertThat(TemplateEnvironment.resolveAll(some.get("FilterCriteria"), filtered, Map.of(), "FilterCriteria"))
                .isEqualTo(Map.of("Filters", List.of(Map.of("Pattern", pattern))));
        assertThat(TemplateEnvironment.resolveAll(indexerEvent(repository.deployed()).get("FilterCriteria"), repository, Map.of(), "FilterCriteria"))
                .isEqualTo(Map.of("Filters", List.of(Map.of("Pattern", "{\"dynamodb\": {\"Keys\": {\"id\": {\"S\": [{\"prefix\": \"issue#\"}]}}}}"))));
    }

    @SuppressWarnings("unchecked")
    private static Object leadingKeys(SamTemplate template, String role, String sid) {
        SamTemplate deployed = template.deployed();
        Map<String, Object> properties = (Map<String, Object>) TemplateEnvironment.resolveAll(deployed.properties(role), deployed,
                names(deployed), role);
        for (Object policy : (List<?>) properties.get("Policies")) {
            for (Object value : (List<?>) SamTemplate.map(SamTemplate.map(policy, "policy").get("PolicyDocument"), "document").get("Statement")) {
                Map<String, Object> statement = SamTemplate.map(value, "statement");
                if (sid.equals(statement.get("Sid"))) {
                    Map<String, Object> condition = SamTemplate.map(statement.get("Condition"), "Condition");
                    return SamTemplate.map(condition.get("ForAllValues:StringLike"), "StringLike").get("dynamodb:LeadingKeys");
                }
            }
        }
        throw new AssertionError(role + " has no statement " + sid);
    }

    private static Map<String, String> names(SamTemplate deployed) {
        Map<String, String> names = new HashMap<>();
        deployed.resources().keySet().forEach(id -> names.put(id, id));
        return names;
    }

    /** APP_TABLE_NAME of every function that has one. */
    private static Map<String, String> appTableNames(SamTemplate deployed) {
        Map<String, String> names = new HashMap<>();
        for (String function : deployed.resourcesOfType("AWS::Serverless::Function")) {
            String name = TemplateEnvironment.of(deployed, function, names(deployed)).get("APP_TABLE_NAME");
            if (name != null) {
                names.put(function, name);
            }
        }
        return names;
    }

    /** The EventSourceArn of every function's stream event source mapping, as deployed (unresolved). */
    private static Map<String, Object> streams(SamTemplate deployed) {
        Map<String, Object> streams = new HashMap<>();
        for (String mapping : deployed.resourcesOfType(StreamMappings.TYPE)) {
            Map<String, Object> properties = deployed.properties(mapping);
            streams.put(StreamMappings.functionOf(properties), properties.get("EventSourceArn"));
        }
        return streams;
    }

    private static Map<String, Object> indexerEvent(SamTemplate deployed) {
        return StreamMappings.of(deployed, "StreamIndexerFunction");
    }

    private static String output(SamTemplate deployed, String name) {
        Object value = SamTemplate.map(SamTemplate.map(deployed.root().get("Outputs"), "Outputs").get(name), name).get("Value");
        return TemplateEnvironment.resolve(value, deployed, names(deployed), name);
    }

    /** The resolved DynamoDB resources of every IAM statement that grants a DynamoDB action, by role and Sid. */
    @SuppressWarnings("unchecked")
    private static Map<String, Set<String>> dynamoDbResources(SamTemplate template) {
        SamTemplate deployed = template.deployed();
        Map<String, Set<String>> resources = new HashMap<>();
        for (String role : deployed.resourcesOfType("AWS::IAM::Role")) {
            Map<String, Object> properties = (Map<String, Object>) TemplateEnvironment.resolveAll(deployed.properties(role), deployed,
                    names(deployed), role);
            for (Object policy : (List<?>) properties.get("Policies")) {
                for (Object value : (List<?>) SamTemplate.map(SamTemplate.map(policy, "policy").get("PolicyDocument"), "document").get("Statement")) {
                    Map<String, Object> statement = SamTemplate.map(value, "statement");
                    if (!String.valueOf(statement.get("Action")).contains("dynamodb:")) {
                        continue;
                    }
                    Object resource = statement.get("Resource");
                    Set<String> named = new TreeSet<>();
                    if (resource instanceof List<?> list) {
                        list.forEach(r -> named.add((String) r));
                    } else {
                        named.add((String) resource);
                    }
                    resources.put(role + "." + statement.get("Sid"), named);
                }
            }
        }
        return resources;
    }

    private static void collectReferences(Object node, List<String> references) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                if ("Ref".equals(key) && value instanceof String ref) {
                    references.add(ref);
                } else if ("Fn::GetAtt".equals(key) && value instanceof List<?> parts) {
                    references.add((String) parts.get(0));
                } else if ("Fn::Sub".equals(key)) {
                    String text = value instanceof List<?> list ? (String) list.get(0) : (String) value;
                    Set<?> own = value instanceof List<?> list ? SamTemplate.map(list.get(1), "Fn::Sub variables").keySet() : Set.of();
                    Matcher matcher = SUB_VARIABLE.matcher(text);
                    while (matcher.find()) {
                        String variable = matcher.group(1).split("\\.")[0];
                        if (!own.contains(variable)) {
                            references.add(variable);
                        }
                    }
                }
                collectReferences(value, references);
            });
        } else if (node instanceof List<?> list) {
            list.forEach(element -> collectReferences(element, references));
        }
    }
}
