package com.multikey.query;

import com.multikey.common.RetryBudget;
import com.multikey.index.GridKeys;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The issue grid's own part of a read, which a query of any other declared index never runs: its settings
 * ({@link GridSettings}: the {@code ByProject} GSI of its missing tail, the project's field catalog), the layout the stack's
 * grid state reads ({@link GridLayoutStore}), and a cursor made in the other layout carried over to the same position in
 * the one read now. {@link IndexQuery} asks it at the steps where the grid differs, and nothing else of the read knows them.
 */
final class IssueGrid {

    private final GridSettings settings;
    private final IndexDefinitions definitions;
    private final IndexProjector projector;
    /** The definitions in the stack's grid state for each page (which of the grid's layouts the grid reads). */
    private final Function<AwsRequestOverrideConfiguration, IndexDefinitions> layout;

    /**
     * @param layout the definitions in the stack's grid state, asked once a page with the time left for one call
     * @throws IllegalArgumentException when the definitions declare the grid and the settings are {@link GridSettings#NONE}
     */
    IssueGrid(GridSettings settings, IndexDefinitions definitions, IndexProjector projector,
              Function<AwsRequestOverrideConfiguration, IndexDefinitions> layout) {
        this.settings = java.util.Objects.requireNonNull(settings, "grid").requireFor(definitions);
        this.definitions = definitions;
        this.projector = projector;
        this.layout = layout;
    }

    GridSettings settings() {
        return settings;
    }

    Function<AwsRequestOverrideConfiguration, IndexDefinitions> layout() {
        return layout;
    }

    /** The definitions in the stack's grid state, its read (when not cached) within the page's budget. */
    IndexDefinitions currentDefinitions(RetryBudget budget, Duration pageBudget) {
        try {
            return layout.apply(budget.callTimeout());
        } catch (ApiCallTimeoutException e) {
            throw new RetryableQueryException("GetItem of the grid layout's state did not answer within the page's budget of " + pageBudget, e);
        }
    }

    /**
     * On a first page of the grid: the sorted field and every other entry a predicate names are fields the project defines
     * (its catalog, read within the page's budget); a field added to a project is looked up again before it is refused.
     *
     * @throws QueryException            naming the entry when the project does not define the sorted field
     * @throws InvalidPredicateException naming the predicate when it names a field the project does not define
     */
    void requireDefined(PageRequest request, Target target, ItemTests tests, Optional<Cursor> cursor, RetryBudget budget,
                        Duration pageBudget) {
        if (cursor.isPresent() || !(target.missing() instanceof Target.MissingSource.ByProject)) {
            return;
        }
        if (!definedInCatalog(request, request.attribId(), budget, pageBudget)) {
            throw new QueryException(QueryException.Subject.ENTRY, "project " + request.project() + " has no attribute '" + request.attribId() + "'");
        }
        for (int i = 0; i < request.expressions().size(); i++) {
            for (Predicate predicate : ExpressionText.predicates(request.expressions().get(i))) {
                String field = predicate.field();
                if (tests.isEntry(field) && !tests.isSortField(field) && !definedInCatalog(request, tests.entryName(field), budget, pageBudget)) {
                    throw new InvalidPredicateException(i, "names field '" + tests.entryName(field) + "', which project "
                            + request.project() + " does not define");
                }
            }
        }
    }

    /** Whether the project's catalog defines the attribute, its read within the page's budget. */
    private boolean definedInCatalog(PageRequest request, String attribId, RetryBudget budget, Duration pageBudget) {
        try {
            return settings.catalog().defines(request.project(), attribId, budget.callTimeout());
        } catch (ApiCallTimeoutException e) {
            throw new RetryableQueryException("GetItem of the project's catalog did not answer within the page's budget of " + pageBudget, e);
        }
    }

    /**
     * A cursor of the grid made while the grid was read in its other layout (the stack moved it meanwhile, or
     * another function instance had not yet seen the move), as the same position in the layout read now; any other cursor
     * as it is.
     */
    Cursor carriedOver(Cursor cursor, Target target, PageRequest request) {
        if (cursor.part() != Cursor.Part.INDEX || !(target.missing() instanceof Target.MissingSource.ByProject)
                || cursor.startKey().isEmpty()) {
            return cursor;
        }
        AttributeValue partition = cursor.startKey().get(IndexKey.ATTRIB_ID);
        AttributeValue sortKey = cursor.startKey().get(IndexKey.SORT_KEY);
        if (cursor.startKey().size() != 2 || partition == null || sortKey == null || partition.s() == null || sortKey.s() == null
                || partition.s().equals(target.partition())) {
            return cursor;
        }
        int valueBytes = definitions.groupedGrid().map(grid -> projector.bounds(grid.name()).valueBytes()).orElse(0);
        GridKeys.Position position = GridKeys.translate(target.index(), request.project(), request.attribId(), valueBytes,
                request.order() == Order.ASC, partition.s(), sortKey.s());
        if (position == null) {
            return cursor;
        }
        return new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(position.partition()),
                IndexKey.SORT_KEY, AttributeValue.fromS(position.sortKey())), cursor.knowledge());
    }
}
