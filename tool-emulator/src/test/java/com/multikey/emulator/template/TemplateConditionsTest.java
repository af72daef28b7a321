package com.multikey.emulator.template;

import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Conditions, rules, {@code Fn::If} and resource conditions of a template, evaluated locally as CloudFormation does. */
class TemplateConditionsTest {

    private static final String TEMPLATE = """
            Parameters:
              TableName:
                Type: String
                Default: ''
              Mode:
                Type: String
                Default: fast
                AllowedPattern: '^[a-z]+$'
              Count:
                Type: Number
                Default: 2
            Rules:
              NameNeedsFastMode:
                RuleCondition: !Not [!Equals [!Ref TableName, '']]
                Assertions:
                  - Assert: !Equals [!Ref Mode, fast]
                    AssertDescription: a named table runs in fast mode only
            Conditions:
              CreateTable: !Equals [!Ref TableName, '']
              NamedTable: !Not [!Condition CreateTable]
              Fast: !Equals [fast, !Ref Mode]
              FastAndCreated: !And [!Condition Fast, !Condition CreateTable]
              FastOrNamed: !Or [!Condition Fast, !Condition NamedTable]
              CountIsTwo: !Equals [!Ref Count, '2']
              InAws: !Equals [!Ref AWS::Partition, aws]
              LocalRegion: !Equals [!Sub '${AWS::Region}/${Mode}', us-east-1/fast]
            Resources:
              Table:
                Type: AWS::DynamoDB::Table
                Condition: CreateTable
                Properties:
                  AttributeDefinitions: [{AttributeName: id, AttributeType: S}]
                  KeySchema: [{AttributeName: id, KeyType: HASH}]
              Queue:
                Type: AWS::SQS::Queue
              Function:
                Type: AWS::Serverless::Function
                Properties:
                  Environment:
                    Variables:
                      TABLE: !If [CreateTable, !Ref Table, !Ref TableName]
                      TABLE_ARN: !If [CreateTable, !GetAtt Table.Arn, !Sub 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${TableName}']
                      ONLY_WHEN_NAMED: !If [NamedTable, named, !Ref AWS::NoValue]
                      QUEUE: !Ref Queue
                  Events:
                    Stream:
                      Type: DynamoDB
                      Properties:
                        FilterCriteria: !If [Fast, {Filters: [{Pattern: '{}'}]}, !Ref AWS::NoValue]
                        Tags: [a, !If [Fast, !Ref AWS::NoValue, b], c]
            Outputs:
              TableName:
                Value: !If [CreateTable, !Ref Table, !Ref TableName]
              CreatedTable:
                Condition: CreateTable
                Value: !Ref Table
            """;

    @TempDir
    Path dir;

    private SamTemplate template(String text) throws IOException {
        Path file = dir.resolve("template.yaml");
        Files.writeString(file, text);
        return SamTemplate.load(file);
    }

    private static Map<String, String> names(SamTemplate template) {
        Map<String, String> names = new java.util.HashMap<>();
        template.deployed().resources().keySet().forEach(id -> names.put(id, id));
        return names;
    }

    @Test
    void conditions_whenParametersTakeTheirDefaults_evaluateEveryConditionFunction() throws IOException {
        // given
        SamTemplate template = template(TEMPLATE);

        // when
        Map<String, Boolean> conditions = template.conditions();

        // then
        assertThat(conditions).containsExactly(Map.entry("CreateTable", true), Map.entry("NamedTable", false), Map.entry("Fast", true),
                Map.entry("FastAndCreated", true), Map.entry("FastOrNamed", true), Map.entry("CountIsTwo", true),
                Map.entry("InAws", true), Map.entry("LocalRegion", true));
    }

    @Test
    void conditions_whenParametersAreOverridden_followTheGivenValues() throws IOException {
        // given
        SamTemplate template = template(TEMPLATE).withParameterOverrides(Map.of("TableName", "orders", "Count", "3"));
        SamTemplate slow = template(TEMPLATE).withParameterOverrides(Map.of("Mode", "slow"));

        // when
        Map<String, Boolean> conditions = template.conditions();

        // then
        assertThat(conditions).containsEntry("CreateTable", false).containsEntry("NamedTable", true).containsEntry("Fast", true)
                .containsEntry("FastAndCreated", false).containsEntry("FastOrNamed", true).containsEntry("CountIsTwo", false);
        assertThat(slow.conditions()).containsEntry("Fast", false).containsEntry("FastAndCreated", false)
                .containsEntry("FastOrNamed", false).containsEntry("LocalRegion", false);
    }

    @Test
    void conditions_whenTheyReferToEachOtherInACycle_areRefused() throws IOException {
        // given
        SamTemplate template = template("""
                Conditions:
                  A: !Condition B
                  B: !Not [!Condition A]
                Resources: {}
                """);

        // when / then
        assertThatThrownBy(template::conditions).isInstanceOf(TemplateException.class).hasMessageContaining("cycle: A -> B -> A");
    }

    @Test
    void conditions_whenAFunctionIsNotAConditionFunction_areRefusedNamingIt() throws IOException {
        // given
        SamTemplate unknownFunction = template("""
                Conditions:
                  A: !Select [0, [a]]
                Resources: {}
                """);
        SamTemplate unknownCondition = template("""
                Conditions:
                  A: !Condition Missing
                Resources: {}
                """);
        SamTemplate unknownParameter = template("""
                Conditions:
                  A: !Equals [!Ref Missing, '']
                Resources: {}
                """);

        // when / then
        assertThatThrownBy(unknownFunction::conditions).isInstanceOf(TemplateException.class).hasMessageContaining("Fn::Select is not evaluated");
        assertThatThrownBy(unknownCondition::conditions).isInstanceOf(TemplateException.class).hasMessageContaining("no condition Missing");
        assertThatThrownBy(unknownParameter::conditions).isInstanceOf(TemplateException.class).hasMessageContaining("Ref Missing names no parameter");
    }

    @Test
    void resolve_ofFnIf_choosesTheBranchOfItsCondition() throws IOException {
        // given
        SamTemplate created = template(TEMPLATE);
        SamTemplate named = created.withParameterOverrides(Map.of("TableName", "orders"));

        // when
        Map<String, String> createdEnv = TemplateEnvironment.of(created, "Function", names(created));
        Map<String, String> namedEnv = TemplateEnvironment.of(named, "Function", names(named));

        // then
        assertThat(createdEnv).containsExactly(Map.entry("TABLE", "Table"),
                Map.entry("TABLE_ARN", "arn:aws:dynamodb:us-east-1:123456789012:table/Table"), Map.entry("QUEUE", "Queue"));
        assertThat(namedEnv).containsExactly(Map.entry("TABLE", "orders"),
                Map.entry("TABLE_ARN", "arn:aws:dynamodb:us-east-1:123456789012:table/orders"), Map.entry("ONLY_WHEN_NAMED", "named"),
                Map.entry("QUEUE", "Queue"));
    }

    @Test
    void resolve_ofFnIfChoosingNoValue_whereAValueIsNeeded_isRefused() throws IOException {
        // given
        SamTemplate template = template(TEMPLATE);
        Object onlyWhenNamed = List.of("NamedTable", "named", Map.of("Ref", "AWS::NoValue"));

        // when / then
        assertThatThrownBy(() -> TemplateEnvironment.resolve(Map.of("Fn::If", onlyWhenNamed), template, Map.of(), "X"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("X: Fn::If chooses AWS::NoValue");
        assertThatThrownBy(() -> TemplateEnvironment.resolve(Map.of("Fn::If", List.of("Nope", "a", "b")), template, Map.of(), "X"))
                .isInstanceOf(TemplateException.class).hasMessageContaining("Fn::If names no condition of the template: Nope");
    }

    @Test
    void deployed_whenTheConditionHolds_keepsTheResource_andAppliesEveryFnIf() throws IOException {
        // given
        SamTemplate template = template(TEMPLATE);

        // when
        SamTemplate deployed = template.deployed();

        // then
        assertThat(template.isCreated("Table")).isTrue();
        assertThat(deployed.resources()).containsOnlyKeys("Table", "Queue", "Function");
        assertThat(deployed.resource("Table")).doesNotContainKey("Condition");
        Map<String, Object> stream = streamProperties(deployed);
        assertThat(stream.get("FilterCriteria")).isEqualTo(Map.of("Filters", List.of(Map.of("Pattern", "{}"))));
        assertThat(stream.get("Tags")).isEqualTo(List.of("a", "c"));
        assertThat(SamTemplate.map(deployed.root().get("Outputs"), "Outputs")).containsOnlyKeys("TableName", "CreatedTable");
        assertThat(SamTemplate.map(SamTemplate.map(deployed.root().get("Outputs"), "Outputs").get("TableName"), "TableName"))
                .isEqualTo(Map.of("Value", Map.of("Ref", "Table")));
    }

    @Test
    void deployed_whenTheConditionIsFalse_leavesOutTheResource_itsOutputs_andNoValueProperties() throws IOException {
        // given
        SamTemplate template = template(TEMPLATE).withParameterOverrides(Map.of("TableName", "orders", "Mode", "fast"));
        SamTemplate slow = template(TEMPLATE).withParameterOverrides(Map.of("Mode", "slow"));

        // when
        SamTemplate deployed = template.deployed();

        // then
        assertThat(template.isCreated("Table")).isFalse();
        assertThat(template.createdResourcesOfType(TemplateTables.TABLE_TYPE)).isEmpty();
        assertThat(template.resourcesOfType(TemplateTables.TABLE_TYPE)).as("as declared").containsExactly("Table");
        assertThat(deployed.resources()).containsOnlyKeys("Queue", "Function");
        assertThat(deployed.resourcesOfType(TemplateTables.TABLE_TYPE)).isEmpty();
        assertThat(SamTemplate.map(deployed.root().get("Outputs"), "Outputs")).containsOnlyKeys("TableName");
        assertThat(streamProperties(slow.deployed())).doesNotContainKey("FilterCriteria").containsEntry("Tags", List.of("a", "b", "c"));
    }

    @Test
    void rules_whenTheirConditionHoldsAndAnAssertionFails_refuseTheParameters_withTheAssertDescription() throws IOException {
        // given
        SamTemplate template = template(TEMPLATE);

        // when / then
        assertThat(template.withParameterOverrides(Map.of("Mode", "slow")).conditions()).as("the rule's condition is false")
                .containsEntry("Fast", false);
        assertThat(template.withParameterOverrides(Map.of("TableName", "orders")).conditions()).containsEntry("NamedTable", true);
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("TableName", "orders", "Mode", "slow")))
                .isInstanceOf(TemplateException.class)
                .hasMessage("template rule NameNeedsFastMode failed: a named table runs in fast mode only");
    }

    @Test
    void withParameterOverrides_whenAValueBreaksTheAllowedPattern_isRefused() throws IOException {
        // given
        SamTemplate template = template(TEMPLATE);

        // when / then
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("Mode", "Fast!")))
                .isInstanceOf(TemplateException.class).hasMessageContaining("Mode=Fast!: does not match ^[a-z]+$");
    }

    @Test
    void tables_whenTheirConditionIsFalse_areNotCreatedInDynamoDbLocal() throws IOException {
        // given
        SamTemplate created = template(TEMPLATE);
        SamTemplate named = created.withParameterOverrides(Map.of("TableName", "orders"));

        try (LocalDynamoDb local = LocalDynamoDb.start(); var dynamoDb = local.client()) {
            // when
            Map<String, String> none = TemplateTables.create(named, dynamoDb);
            Map<String, String> one = TemplateTables.create(created, dynamoDb);

            // then
            assertThat(none).isEmpty();
            assertThat(one).containsExactly(Map.entry("Table", "Table"));
            assertThat(dynamoDb.listTables().tableNames()).containsExactly("Table");
        }
    }

    private static Map<String, Object> streamProperties(SamTemplate template) {
        Map<String, Object> events = SamTemplate.map(template.properties("Function").get("Events"), "Events");
        return SamTemplate.map(SamTemplate.map(events.get("Stream"), "Stream").get("Properties"), "Properties");
    }
}
