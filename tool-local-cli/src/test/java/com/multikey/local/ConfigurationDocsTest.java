package com.multikey.local;

import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md's table of environment variables names, for every function of template.yaml, every variable the
 * template sets for it, and {@code INDEX_DEFINITIONS}, which every function reads (a file to use instead of the
 * packaged definitions).
 */
class ConfigurationDocsTest {

    private static final SamTemplate TEMPLATE = SamTemplate.ofRepository();
    private static final Path PAGE = TEMPLATE.path().toAbsolutePath().getParent().resolve("docs").resolve("configuration.md");

    /** A function's name in the table: its module's, without {@code stream-} or {@code -api} (stream-indexer: indexer). */
    private static String docName(String function) {
        String codeUri = (String) TEMPLATE.properties(function).get("CodeUri");
        return codeUri.substring(0, codeUri.indexOf('/')).replaceFirst("^stream-", "").replaceFirst("-api$", "");
    }

    /** Each row's functions (its first cell, comma-separated) and variables (its second cell's backticked names). */
    private static List<Map.Entry<List<String>, List<String>>> rows() throws Exception {
        List<Map.Entry<List<String>, List<String>>> rows = new ArrayList<>();
        for (String line : Files.readAllLines(PAGE, StandardCharsets.UTF_8)) {
            String[] cells = line.split("\\|");
            if (line.startsWith("| ") && cells.length > 3 && cells[2].contains("`")) {
                List<String> functions = List.of(cells[1].strip().split(",\\s*"));
                List<String> variables = new ArrayList<>();
                java.util.regex.Matcher name = java.util.regex.Pattern.compile("`([A-Z0-9_<>]+)`").matcher(cells[2]);
                while (name.find()) {
                    variables.add(name.group(1));
                }
                rows.add(Map.entry(functions, variables));
            }
        }
        return rows;
    }

    @Test
    void configurationTable_namesEveryVariableOfEveryFunction_andIndexDefinitionsForEach() throws Exception {
        // given
        List<Map.Entry<List<String>, List<String>>> rows = rows();
        TreeSet<String> undocumented = new TreeSet<>();

        // when
        for (String function : TEMPLATE.resourcesOfType("AWS::Serverless::Function")) {
            String name = docName(function);
            List<String> variables = new ArrayList<>(List.of("INDEX_DEFINITIONS"));
            if (TEMPLATE.properties(function).get("Environment") instanceof Map<?, ?> environment
                    && environment.get("Variables") instanceof Map<?, ?> set) {
                set.keySet().forEach(variable -> variables.add((String) variable));
            }
            for (String variable : variables) {
                boolean documented = rows.stream().anyMatch(row -> (row.getKey().contains(name) || row.getKey().contains("all"))
                        && row.getValue().contains(variable));
                if (!documented) {
                    undocumented.add(name + " " + variable);
                }
            }
        }

        // then
        assertThat(undocumented).as("function variable, not in " + PAGE).isEmpty();
    }
}
