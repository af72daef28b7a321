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
 * <p>A grouped index may {@code replace} the field-partitioned one (the grid's two layouts); which of the two are
 * live — written by the indexer, checked by verify — is the stack's {@link GridState}, which the file alone cannot know:
 * definitions as read are in state {@link GridState#FIELD_PARTITIONED} (what the file meant before the grouped grid
 * existed), and a function runs with {@link #withGridState} of the state its stack recorded.
 */
public final class IndexDefinitions {

    /** The definitions the functions carry: the repository's {@code index-definitions.yaml}, checked and made JSON by the build. */
    public static final String RESOURCE = "/index-definitions.json";
    /** A function reads the definitions file (YAML or JSON) at this path instead when it is set. */
    public static final String ENVIRONMENT_VARIABLE = "INDEX_DEFINITIONS";

    private final int version;
    private final KeySchema table;
    private final List<EntityTypeRule> entityTypes;
    private final List<IndexDefinition> declared;
    private final GridState gridState;
    private final List<IndexDefinition> live;

    /**
     * @param version     the file format's version ({@value DefinitionsReader#VERSION})
     * @param table       the table's key schema
     * @param entityTypes rules tried in order; the first that decides gives the type
     * @param declared    the declared indexes, names unique
     * @param gridState   which of the grid's layouts are live, when a grouped index replaces a field-partitioned one
     */
    public IndexDefinitions(int version, KeySchema table, List<EntityTypeRule> entityTypes, List<IndexDefinition> declared,
                            GridState gridState) {
        this.version = version;
        this.table = Objects.requireNonNull(table, "table");
        this.entityTypes = List.copyOf(entityTypes);
        this.declared = List.copyOf(declared);
        this.gridState = Objects.requireNonNull(gridState, "gridState");
        Optional<IndexDefinition> grouped = this.declared.stream().filter(i -> i.replaces().isPresent()).findFirst();
        this.live = this.declared.stream().filter(index -> grouped.map(g -> {
            if (index == g) {
                return gridState.writesGrouped();
            }
            if (index.name().equals(g.replaces().get())) {
                return gridState.writesFieldPartitioned();
            }
            return true;
        }).orElse(true)).toList();
    }

    public int version() {
        return version;
    }

    public KeySchema table() {
        return table;
    }

    public List<EntityTypeRule> entityTypes() {
        return entityTypes;
    }

    /** The indexes kept in the grid state of these definitions: every declared one but a grid layout not written in it. */
    public List<IndexDefinition> indexes() {
        return live;
    }

    /** Every declared index, both grid layouts included. */
    public List<IndexDefinition> declared() {
        return declared;
    }

    public GridState gridState() {
        return gridState;
    }

    /** These definitions in another grid state. */
    public IndexDefinitions withGridState(GridState state) {
        return state == gridState ? this : new IndexDefinitions(version, table, entityTypes, declared, state);
    }

    /** The grouped index that replaces the field-partitioned grid, when one is declared. */
    public Optional<IndexDefinition> groupedGrid() {
        return declared.stream().filter(i -> i.replaces().isPresent()).findFirst();
    }

    /** The field-partitioned index (the grid's original layout), when one is declared. */
    public Optional<IndexDefinition> fieldPartitionedGrid() {
        return declared.stream().filter(i -> i.layout() == IndexDefinition.Layout.FIELD_PARTITIONED).findFirst();
    }

    /**
     * The index the grid's readers read in this grid state: the grouped grid once the state reads it, else the
     * field-partitioned index, if any.
     */
    public Optional<IndexDefinition> grid() {
        Optional<IndexDefinition> grouped = groupedGrid();
        if (grouped.isPresent() && (gridState.readsGrouped() || fieldPartitionedGrid().isEmpty())) {
            return grouped;
        }
        return fieldPartitionedGrid();
    }

    /** Whether this index is one of the grid's layouts (read by the grid's readers, with its missing tail). */
    public boolean isGrid(IndexDefinition index) {
        return index.layout() == IndexDefinition.Layout.FIELD_PARTITIONED || index.replaces().isPresent();
    }

    /** The declared index of this name. */
    public Optional<IndexDefinition> index(String name) {
        return declared.stream().filter(index -> index.name().equals(name)).findFirst();
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

    /** Equal when they declare the same table, entity types and indexes, in the same grid state. */
    @Override
    public boolean equals(Object o) {
        return o instanceof IndexDefinitions other && version == other.version && table.equals(other.table)
                && entityTypes.equals(other.entityTypes) && declared.equals(other.declared) && gridState == other.gridState;
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, table, entityTypes, declared, gridState);
    }
}
