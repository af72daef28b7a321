package com.multikey.index.definition;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The indexes declared over one table, and how its items' entity types are told: the contents of one
 * versioned definitions file ({@code index-definitions.yaml}). Read and checked by {@link DefinitionsReader}; the
 * build checks the repository's file and packages it as JSON ({@value #RESOURCE}) in every function jar. A file given
 * instead ({@value #ENVIRONMENT_VARIABLE}, a command line's {@code --definitions}) is YAML or JSON, read by
 * {@link DefinitionsFile} everywhere.
 *
 * @param version     the file format's version ({@value DefinitionsReader#VERSION})
 * @param table       the table's key schema
 * @param entityTypes rules tried in order; the first that decides gives the type
 * @param indexes     the declared indexes, names unique
 */
public record IndexDefinitions(int version, KeySchema table, List<EntityTypeRule> entityTypes, List<IndexDefinition> indexes) {

    /** The definitions the functions carry: the repository's {@code index-definitions.yaml}, checked and made JSON by the build. */
    public static final String RESOURCE = "/index-definitions.json";
    /** A function reads the definitions file (YAML or JSON) at this path instead when it is set. */
    public static final String ENVIRONMENT_VARIABLE = "INDEX_DEFINITIONS";

    public IndexDefinitions {
        Objects.requireNonNull(table, "table");
        entityTypes = List.copyOf(entityTypes);
        indexes = List.copyOf(indexes);
    }

    /** The declared index of this name. */
    public Optional<IndexDefinition> index(String name) {
        return indexes.stream().filter(index -> index.name().equals(name)).findFirst();
    }

    /** The entity type of an item (its key attributes and its image), or {@code item} when no rule decides. */
    public String entityTypeOf(Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
        for (EntityTypeRule rule : entityTypes) {
            Optional<String> type = rule.typeOf(item);
            if (type.isPresent()) {
                return type.get();
            }
        }
        return "item";
    }

    /**
     * The definitions a function runs with: the file (YAML or JSON) {@code INDEX_DEFINITIONS} names, else the packaged one.
     */
    public static IndexDefinitions fromEnvironment(Map<String, String> env) {
        String path = env.get(ENVIRONMENT_VARIABLE);
        if (path != null && !path.isBlank()) {
            return read(Path.of(path));
        }
        return packaged();
    }

    /** The definitions packaged with the functions (the repository's {@code index-definitions.yaml}). */
    public static IndexDefinitions packaged() {
        try (InputStream in = IndexDefinitions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new DefinitionException("no " + RESOURCE.substring(1) + " on the class path; build the function jars with the project's pom");
            }
            return DefinitionsReader.readJson(in, RESOURCE.substring(1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a definitions file, YAML or JSON. */
    public static IndexDefinitions read(Path file) {
        return DefinitionsFile.read(file);
    }
}
