package com.multikey.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.KeySchema;

import java.util.stream.Collectors;

/**
 * Writes a {@link DefinitionsProposal} as the definitions file people review: the key schema and entity types as
 * settings (with the sample's counts as comments), {@code indexes: []}, and each candidate index commented out line by
 * line ({@code # }) under a note ({@code ## }) on how many items carry the attribute and its distinct values. The file
 * reads as it is; with {@code indexes: []} made {@code indexes:} and a candidate's {@code # } removed, it reads too.
 */
final class ProposalYaml {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where the proposal comes from, for the file's header. */
    record Source(String table, String where, int sampled, Long itemCount, boolean whole, StreamReadiness stream, StreamReaders readers) {
    }

    private ProposalYaml() {
    }

    static String render(DefinitionsProposal proposal, Source source) {
        StringBuilder yaml = new StringBuilder();
        line(yaml, "# Index definitions proposed by 'operator-cli init' for table " + source.table() + " " + source.where() + ",");
        line(yaml, "# from " + sampled(source) + ". Review it: name the entity types, keep the indexes you need.");
        line(yaml, "# Format: docs/index-definitions.md. Cost and native alternatives: operator-cli.jar plan --definitions <this file>"
                + " --table " + source.table());
        if (source.stream().ready()) {
            line(yaml, "# Stream: " + StreamReadiness.BOTH_IMAGES + " (what the indexer needs).");
        } else {
            line(yaml, "# Stream: NOT READY: " + source.stream().change(source.table()) + ".");
        }
        // a stream serves two readers a shard: the mode of the stack to deploy beside the readers it already has
        line(yaml, "# Stream readers: " + source.readers().summary() + ".");
        line(yaml, "# Choose: " + source.readers().advice() + ".");
        yaml.append("version: 1\n\ntable:\n");
        KeySchema key = proposal.key();
        line(yaml, "  partitionKey: " + keyAttribute(key.partitionKey()));
        key.sortKey().ifPresent(sort -> line(yaml, "  sortKey: " + keyAttribute(sort)));
        yaml.append('\n');
        entityTypes(yaml, proposal, source);
        yaml.append('\n');
        candidates(yaml, proposal, source);
        return yaml.toString();
    }

    private static String sampled(Source source) {
        String of = source.whole() ? "the whole table" : "a sample" + (source.itemCount() == null ? ""
                : " of DynamoDB's count of " + source.itemCount() + " items (updated about every six hours)");
        return source.sampled() + " items read (" + of + ", read-only)";
    }

    private static void entityTypes(StringBuilder yaml, DefinitionsProposal proposal, Source source) {
        EntityTypeFinder.Found found = proposal.types();
        if (found.types().isEmpty()) {
            line(yaml, "# No entity types: no key prefix (such as ISSUE# in ISSUE#12) was found; every item is of type 'item'.");
            yaml.append("entityTypes: []\n");
            return;
        }
        line(yaml, "# Entity types from the key prefixes found (the router names events after them: Issue Updated); rename them.");
        yaml.append("entityTypes:\n");
        for (EntityTypeFinder.EntityType type : found.types()) {
            String when = type.when().stream().map(c -> "{attribute: " + quote(c.attribute()) + ", beginsWith: " + quote(c.prefix()) + "}")
                    .collect(Collectors.joining(", "));
            line(yaml, "  - {name: " + type.name() + ", when: [" + when + "]}   # " + type.items() + " of " + source.sampled() + " items");
        }
        if (found.untyped() > 0) {
            line(yaml, "# " + found.untyped() + " items matched no rule (their type is 'item').");
        }
    }

    private static void candidates(StringBuilder yaml, DefinitionsProposal proposal, Source source) {
        yaml.append("indexes: []\n");
        if (proposal.candidates().isEmpty()) {
            line(yaml, "# No candidate indexes: the items sampled carry no attribute besides the key.");
        } else {
            line(yaml, "# Candidate indexes, one per map, list or set and scalar attribute of each type. To keep some, make");
            line(yaml, "# 'indexes: []' above 'indexes:' and remove the '# ' before each line of the ones you keep ('##' lines are notes).");
        }
        for (DefinitionsProposal.Candidate candidate : proposal.candidates()) {
            yaml.append('\n');
            line(yaml, "  ## " + note(candidate));
            if (candidate.group() == null && proposal.key().sortKey().isPresent()) {
                line(yaml, "  ## no group: these items share no partition key value; add 'group: <attribute>' naming what a query runs within");
            }
            line(yaml, "  # - name: " + quote(candidate.name()));
            if (candidate.entityType() != null) {
                line(yaml, "  #   covers: [" + candidate.entityType().when().stream()
                        .map(c -> "{attribute: " + quote(c.attribute()) + ", beginsWith: " + quote(c.prefix()) + "}")
                        .collect(Collectors.joining(", ")) + "]");
            }
            if (candidate.group() != null) {
                line(yaml, "  #   group: " + quote(candidate.group()));
            }
            line(yaml, "  #   values: {" + candidate.values() + ": " + quote(candidate.stats().name()) + "}");
        }
        if (!proposal.unaddressed().isEmpty()) {
            yaml.append('\n');
            line(yaml, "# Not proposed: attributes whose name holds a dot cannot be named in a definition: "
                    + proposal.unaddressed().stream().sorted().collect(Collectors.joining(", ")));
        }
    }

    private static String note(DefinitionsProposal.Candidate candidate) {
        AttributeSurvey.AttributeStats stats = candidate.stats();
        String type = candidate.entityType() == null ? "" : candidate.entityType().name() + " ";
        String kind = switch (candidate.values()) {
            case "entriesOf" -> "map";
            case "elementsOf" -> "list or set";
            default -> "scalar";
        };
        String noun = "elementsOf".equals(candidate.values()) ? "element" : "value";
        String distinct = (stats.capped() ? "more than " : "") + stats.distinctValues() + " distinct " + noun
                + (stats.distinctValues() == 1 && !stats.capped() ? "" : "s");
        String entries = stats.entryNames().isEmpty() ? "" : stats.entryNames().size() + " entry names ("
                + stats.entryNames().stream().limit(5).collect(Collectors.joining(", ")) + (stats.entryNames().size() > 5 ? ", …" : "") + "); ";
        return type + kind + " " + stats.name() + ": on " + stats.items() + " of " + candidate.typeItems() + " " + type + "items; "
                + entries + distinct + "; types " + stats.types().stream().sorted().collect(Collectors.joining(", "));
    }

    private static String keyAttribute(KeySchema.KeyAttribute attribute) {
        return "{name: " + quote(attribute.name()) + ", type: " + attribute.type() + "}";
    }

    /** A YAML double-quoted scalar (JSON's escapes are YAML's). */
    static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string always serialises", e);
        }
    }

    /** One line; control characters in names and values never break a comment onto a new line. */
    private static void line(StringBuilder yaml, String text) {
        yaml.append(text.replaceAll("\\p{Cntrl}", " ")).append('\n');
    }
}
