package com.multikey.cli;

import com.multikey.index.definition.KeySchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class EntityTypeFinderTest {

    @ParameterizedTest
    @CsvSource(nullValues = "none", value = {"ISSUE#12, ISSUE#", "issue#020e, issue#", "lyr#us-east-1.requests, lyr#", "lyrVrsn12#, lyrVrsn",
            "USER_PROFILE#7, USER_PROFILE#", "alice, none", "a1, none", "3f9c2a, none", "#x, none", "v2#x, none", "ver2#x, ver"})
    void prefixOf_takesLettersBeforeTheFirstHash_elseTheLeadingLetters(String value, String prefix) {
        assertThat(EntityTypeFinder.prefixOf(AttributeValue.fromS(value))).isEqualTo(Optional.ofNullable(prefix));
    }

    @Test
    void prefixOf_aNumberOrBinaryKey_hasNone() {
        assertThat(EntityTypeFinder.prefixOf(AttributeValue.fromN("12"))).isEmpty();
        assertThat(EntityTypeFinder.prefixOf(null)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"ISSUE#, Issue", "lyr#, Lyr", "lyrVrsn, LyrVrsn", "USER_PROFILE#, Userprofile", "x-ray#, Xray"})
    void name_isPascalCase(String prefix, String name) {
        assertThat(EntityTypeFinder.name(prefix, new HashSet<>())).isEqualTo(name);
    }

    @Test
    void name_takenAlready_getsANumber() {
        Set<String> taken = new HashSet<>(Set.of("Issue"));
        assertThat(EntityTypeFinder.name("issue#", taken)).isEqualTo("Issue2");
    }

    @Test
    void find_onATableKeyedId_tellsTypesByThePartitionKeysPrefix_andCountsWhatNoRuleTakes() {
        KeySchema key = new KeySchema(new KeySchema.KeyAttribute("id", KeySchema.KeyType.S), Optional.empty(), 256);
        List<Map<String, AttributeValue>> items = List.of(Map.of("id", AttributeValue.fromS("issue#020e")),
                Map.of("id", AttributeValue.fromS("issue#67d1")), Map.of("id", AttributeValue.fromS("layer#us-east-1#requests#12")),
                Map.of("id", AttributeValue.fromS("0042")));

        EntityTypeFinder.Found found = EntityTypeFinder.find(key, items);

        assertThat(found.types()).containsExactly(
                new EntityTypeFinder.EntityType("Issue", List.of(new EntityTypeFinder.KeyPrefix("id", "issue#")), 2),
                new EntityTypeFinder.EntityType("Layer", List.of(new EntityTypeFinder.KeyPrefix("id", "layer#")), 1));
        assertThat(found.untyped()).isEqualTo(1);
    }

    @Test
    void find_whenNeitherPrefixAloneTellsATypeApart_usesBoth() {
        KeySchema key = new KeySchema(new KeySchema.KeyAttribute("pk", KeySchema.KeyType.S),
                Optional.of(new KeySchema.KeyAttribute("sk", KeySchema.KeyType.S)), 256);
        List<Map<String, AttributeValue>> items = List.of(item("USER#1", "ORDER#1"), item("USER#1", "PROFILE#"),
                item("SHOP#1", "ORDER#2"), item("SHOP#1", "PROFILE#"));

        EntityTypeFinder.Found found = EntityTypeFinder.find(key, items);

        assertThat(found.types()).hasSize(4).allSatisfy(type -> assertThat(type.when()).hasSize(2));
        assertThat(found.types()).extracting(EntityTypeFinder.EntityType::name).doesNotHaveDuplicates();
        assertThat(found.untyped()).isZero();
    }

    private static Map<String, AttributeValue> item(String pk, String sk) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk));
    }
}
