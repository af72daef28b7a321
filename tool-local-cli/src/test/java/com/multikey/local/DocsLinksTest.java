package com.multikey.local;

import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of README.md and the pages under docs/ and examples/ resolves: the file or folder exists, and
 * a {@code #fragment} names a heading of the page it points to (GitHub's anchors).
 */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);
    private static final Path ROOT = SamTemplate.findUp("template.yaml").toAbsolutePath().getParent();

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        for (String folder : List.of("docs", "examples")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(folder))) {
                files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        return pages;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String anchor(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    static Set<String> anchors(Path page) throws IOException {
        String text = withoutCode(Files.readString(page, StandardCharsets.UTF_8));
        Matcher heading = HEADING.matcher(text);
        Set<String> anchors = new java.util.HashSet<>();
        while (heading.find()) {
            anchors.add(anchor(heading.group(1)));
        }
        return anchors;
    }

    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "");
    }

    static List<String> brokenLinks(Path page) throws IOException {
        List<String> broken = new ArrayList<>();
        Matcher link = LINK.matcher(withoutCode(Files.readString(page, StandardCharsets.UTF_8)));
        while (link.find()) {
            String target = link.group(1);
            if (target.matches("[a-z]+:.*")) {
                continue;
            }
            int hash = target.indexOf('#');
            String file = hash < 0 ? target : target.substring(0, hash);
            Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
            if (!Files.exists(resolved)) {
                broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
            } else if (hash >= 0 && resolved.toString().endsWith(".md") && !anchors(resolved).contains(target.substring(hash + 1))) {
                broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
            }
        }
        return broken;
    }

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocs_resolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            broken.addAll(brokenLinks(page));
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void theCheck_findsAMissingFileAndAMissingHeading() throws IOException {
        Path page = Files.createTempFile(Path.of("target").toAbsolutePath(), "links-", ".md");
        try {
            Files.writeString(page, "# Title\n\n[ok](#title) [gone](no-such-page.md) [bad](#no-such-heading) [web](https://example.com)\n");
            assertThat(brokenLinks(page).stream().map(line -> line.substring(line.indexOf(": ") + 2)).collect(Collectors.toList()))
                    .containsExactly("no-such-page.md (no such file)", "#no-such-heading (no such heading)");
        } finally {
            Files.delete(page);
        }
    }

    @Test
    void anchors_areGitHubs() {
        assertThat(anchor("Backfill, verify, repair (in one process)")).isEqualTo("backfill-verify-repair-in-one-process");
        assertThat(anchor("Run a function with `sam local invoke`")).isEqualTo("run-a-function-with-sam-local-invoke");
    }
}
