package com.multikey.index;

import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An existing stack that upgrades keeps its index byte for byte: the default definitions project the sample
 * grid and 400 random issues (every value type, the limits, malformed images) onto exactly the stored items
 * the index held before index definitions existed ({@code src/test/resources/golden/issue-grid-index.txt},
 * written by that version's projector, from the same seeded images).
 */
class LegacyLayoutGoldenTest {

    static final Path GOLDEN = Path.of("src", "test", "resources", "golden", "issue-grid-index.txt");

    @Test
    void defaultDefinitions_project_theItemsTheIndexHeldBeforeDefinitions() throws IOException {
        List<String> expected = Files.readAllLines(GOLDEN, StandardCharsets.UTF_8);

        List<String> actual = render();

        assertThat(actual).hasSize(expected.size());
        for (int line = 0; line < expected.size(); line++) {
            assertThat(actual.get(line)).as("line %d of %s", line + 1, GOLDEN).isEqualTo(expected.get(line));
        }
    }

    static List<String> render() throws IOException {
        IndexProjector projector = new IndexProjector(IndexDefinitions.packaged());
        List<String> lines = new ArrayList<>();
        for (Map<String, AttributeValue> image : GoldenIssueImages.all()) {
            String id = image.get("id").s();
            ItemProjection projection = projector.project(ItemKey.ofString("id", id), image);
            lines.add("# " + id.length() + " " + projection.items().size() + " items, " + projection.rejections().size() + " rejected");
            projection.items().stream().map(item -> GoldenIssueImages.canonical(item.toItem())).sorted().forEach(lines::add);
        }
        return lines;
    }

}
