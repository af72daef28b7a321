package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code template.yaml} checked as AWS reads it: against SAM's own JSON schema, its short intrinsic tags in their long
 * form. A property SAM types more narrowly than CloudFormation (an integer where a parameter cannot go) fails here, not
 * at {@code sam deploy}.
 */
class SamSchemaTest {

    private static final Path TEMPLATE = SamTemplate.findUp("template.yaml");

    @Test
    void repositoryTemplate_isValidAgainstSamsSchema() {
        assertThat(SamSchema.violations(SamTemplate.load(TEMPLATE))).as("what SAM's schema refuses in %s", TEMPLATE).isEmpty();
    }

    @Test
    void violations_whenAParameterIsWhereSamTakesOnlyAnInteger_nameTheResourceAndPropertyPath(@TempDir Path dir) throws IOException {
        // given: the worker's retries given by a parameter again
        Path copy = withReplaced(dir, "  ReindexWorkerFunction:\n", "MaximumRetryAttempts: 2", "MaximumRetryAttempts: !Ref DriftCheckTotalSegments");

        // when
        List<String> violations = SamSchema.violations(SamTemplate.load(copy));

        // then
        assertThat(violations).singleElement().asString()
                .startsWith("Resources.ReindexWorkerFunction.Properties.EventInvokeConfig.MaximumRetryAttempts: ")
                .contains("integer expected", "{\"Ref\":\"DriftCheckTotalSegments\"}");
    }

    @Test
    void violations_whenAFunctionHasAPropertySamDoesNotKnow_nameIt(@TempDir Path dir) throws IOException {
        // given: a property of AWS::Lambda::Function's own spelling SAM's function does not take
        Path copy = withReplaced(dir, "  ReindexWorkerFunction:\n", "      Timeout: !Ref ReindexWorkerTimeout\n",
                "      Timeout: !Ref ReindexWorkerTimeout\n      TracingConfig: {Mode: Active}\n");

        // when
        List<String> violations = SamSchema.violations(SamTemplate.load(copy));

        // then
        assertThat(violations).singleElement().asString()
                .startsWith("Resources.ReindexWorkerFunction.Properties: ").contains("'TracingConfig'");
    }

    /** A copy of the template with the first {@code from} after {@code section} replaced by {@code to}. */
    private static Path withReplaced(Path dir, String section, String from, String to) throws IOException {
        String text = Files.readString(TEMPLATE);
        int start = text.indexOf(section);
        int at = text.indexOf(from, start);
        assertThat(start).as("%s in the template", section).isNotNegative();
        assertThat(at).as("%s after %s in the template", from, section).isNotNegative();
        Path copy = dir.resolve("template.yaml");
        Files.writeString(copy, text.substring(0, at) + to + text.substring(at + from.length()));
        return copy;
    }
}
