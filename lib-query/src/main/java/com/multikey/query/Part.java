package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one reader returns for a page: the items it listed in page order, where the next page resumes (empty: its part
 * ended), what the request knows after it ({@link Knowledge}, carried in the cursor), and which plan made it and why.
 *
 * @param listed    the items listed, each under the value it is listed under
 * @param next      where the next page resumes; empty when the part ended
 * @param learned   what earlier pages knew and this read learned
 * @param explained the plan that listed the items, why, and the plans weighed
 */
record Part(List<Listed> listed, Optional<Cursor> next, Knowledge learned, Explained explained) {

    Part {
        listed = List.copyOf(listed);
    }

    /** An item of the page and the value of the sorted field it is listed under (null in the missing tail). */
    record Listed(Map<String, AttributeValue> item, AttributeValue value) {
    }

    /**
     * Which plan listed a page's items, why, and every plan weighed with its estimated cost (empty: only the one read).
     */
    record Explained(Plan plan, String reason, List<Explain.Alternative> alternatives) {
        Explained {
            alternatives = List.copyOf(alternatives);
        }
    }
}
