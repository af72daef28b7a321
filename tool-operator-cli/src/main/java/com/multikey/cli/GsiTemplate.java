package com.multikey.cli;

import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.IndexDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A global secondary index as a CloudFormation (or SAM) template declares it, for the table's {@code Properties}: the
 * attribute definitions of its keys and one {@code GlobalSecondaryIndexes} entry whose {@code KeySchema} lists each
 * group attribute as {@code HASH} and the value and each tie-breaker as {@code RANGE}, in the index's order.
 */
final class GsiTemplate {

    private GsiTemplate() {
    }

    /** @param types the types seen of each key attribute (one each; none seen: S) */
    static String of(IndexDefinition index, Map<AttributePath, Set<AttributeValue.Type>> types) {
        StringBuilder yaml = new StringBuilder();
        yaml.append("AttributeDefinitions:   # add those the table does not define yet\n");
        Set<String> defined = new LinkedHashSet<>();
        types.forEach((path, seen) -> {
            if (defined.add(path.toString())) {
                String type = seen.isEmpty() ? "S" : seen.iterator().next().name();
                yaml.append("  - {AttributeName: ").append(name(path.toString())).append(", AttributeType: ").append(type).append("}\n");
            }
        });
        yaml.append("GlobalSecondaryIndexes:\n");
        yaml.append("  - IndexName: ").append(name(index.name().length() < 3 ? index.name() + "-gsi" : index.name())).append('\n');
        yaml.append("    KeySchema:\n");
        index.group().forEach(path -> yaml.append("      - {AttributeName: ").append(name(path.toString())).append(", KeyType: HASH}\n"));
        yaml.append("      - {AttributeName: ").append(name(index.values().path().toString())).append(", KeyType: RANGE}\n");
        index.orderBy().forEach(t -> yaml.append("      - {AttributeName: ").append(name(t.path().toString())).append(", KeyType: RANGE}\n"));
        yaml.append("    Projection:\n");
        Set<String> projected = new LinkedHashSet<>();
        index.projection().forEach(path -> projected.add(name(path.names().get(0))));
        if (projected.isEmpty()) {
            yaml.append("      ProjectionType: KEYS_ONLY\n");
        } else {
            yaml.append("      ProjectionType: INCLUDE\n");
            yaml.append("      NonKeyAttributes: [").append(String.join(", ", projected)).append("]\n");
        }
        return yaml.toString();
    }

    /** A name as a plain YAML scalar when it reads back as that string, else double-quoted. */
    private static String name(String name) {
        boolean plain = name.matches("[A-Za-z_][A-Za-z0-9_.-]*")
                && !name.matches("(?i)true|false|null|yes|no|on|off|y|n");
        return plain ? name : ProposalYaml.quote(name);
    }
}
