package com.multikey.query;

import com.multikey.index.definition.GridState;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/query.md: the issue grid, asked without an index or by either of its names, is read in the layout the stack's grid
 * state reads; a page names the index it was read from.
 */
@ExtendWith(LocalTablesExtension.class)
class PageIndexTest {

    @Test
    void page_ofTheGridInTheGroupedState_namesTheGroupedIndex_whicheverNameTheRequestGave(LocalTables tables) {
        // given: a grouped stack (the definitions in state grouped)
        DynamoDbClient dynamoDb = tables.dynamoDb();
        PlannerEdgeCasesTest.put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#1"), "project", AttributeValue.fromS("project#p"),
                "num", AttributeValue.fromN("1"), "custom_fields", AttributeValue.fromM(Map.of("sev", AttributeValue.fromN("3")))));
        IndexQuery query = PlannerEdgeCasesTest.query(dynamoDb);
        List<AttributeValue> project = List.of(AttributeValue.fromS("project#p"));

        // when
        Page grid = query.page(PageRequest.first("project#p", "sev", Order.ASC, 10));
        Page byOldName = query.page(PageRequest.onIndex("custom_fields", project, "sev", Order.ASC, 10));
        Page byNewName = query.page(PageRequest.onIndex("issue-grid", project, "sev", Order.ASC, 10));

        // then
        assertThat(query.currentDefinitions().gridState()).isEqualTo(GridState.GROUPED);
        assertThat(List.of(grid, byOldName, byNewName)).allSatisfy(page -> {
            assertThat(page.items()).hasSize(1);
            assertThat(page.index()).contains("issue-grid");
        });
    }

    @Test
    void page_madeWithoutItsIndex_namesNone_untilReadFromOne() {
        Page page = new Page(List.of(), null, 1);

        assertThat(page.index()).isEmpty();
        assertThat(page.readFrom("custom_fields").index()).contains("custom_fields");
        assertThat(page.readFrom("custom_fields").apiCalls()).isEqualTo(1);
    }
}
