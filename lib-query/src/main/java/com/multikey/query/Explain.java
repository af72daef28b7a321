package com.multikey.query;

import java.util.List;
import java.util.Optional;

/**
 * How a page was read, for a caller that asked ({@link PageRequest#withExplain()}): the plan chosen and why, the plans it
 * weighed with their estimated cost, what was read, and, when the query cannot be answered within the read budget at a
 * reasonable cost, the index to declare that would answer it in two calls.
 *
 * @param plan         the plan that produced the page ({@code sort-index(field)} or {@code drive(where[i]: text)})
 * @param reason       why it was chosen
 * @param alternatives every plan weighed, the chosen one included, with its estimated cost for this page
 * @param read         what the page read
 * @param suggestion   a definitions entry (YAML) that would answer the query in one Query and one BatchGetItem a page
 */
public record Explain(String plan, String reason, List<Alternative> alternatives, Reads read, Optional<String> suggestion) {

    public Explain {
        alternatives = List.copyOf(alternatives);
    }

    /**
     * A plan and its estimated items read for this page.
     *
     * @param estimatedItems items it would read (index items and items of the table); -1 when nothing tells yet
     * @param basis          where the estimate comes from (a count read, the yield of a sort read, a lower bound)
     */
    public record Alternative(String plan, long estimatedItems, String basis) {
    }

    /**
     * What one page read.
     *
     * @param queries    Query calls (on the index table and on the source table or its ByProject index)
     * @param batchGets  BatchGetItem calls, unprocessed keys sent again included
     * @param indexItems index items read
     * @param tableItems items of the source table read
     */
    public record Reads(int queries, int batchGets, int indexItems, int tableItems) {
        public int examined() {
            return indexItems + tableItems;
        }

        public int calls() {
            return queries + batchGets;
        }
    }

    /** The explanation of a page: how it was read ({@link Part.Explained}), what it read, the index that would serve it. */
    static Explain of(Part.Explained explained, Reads read, Optional<String> suggestion) {
        String plan = explained.plan().describe();
        List<Alternative> weighed = explained.alternatives().isEmpty()
                ? List.of(new Alternative(plan, read.examined(), "read")) : explained.alternatives();
        return new Explain(plan, explained.reason(), weighed, read, suggestion);
    }
}
