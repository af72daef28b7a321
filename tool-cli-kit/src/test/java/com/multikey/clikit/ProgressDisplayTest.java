package com.multikey.clikit;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Progress when standard error is no terminal: plain lines a log keeps; on a terminal, the library's bar. */
class ProgressDisplayTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private String printed() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void lines_printEachUpdate_whenNoIntervalHolds_withPercentAndDetail() {
        try (ProgressDisplay progress = new ProgressDisplay.Lines("backfill", "items", new PrintStream(err, true, StandardCharsets.UTF_8),
                Duration.ZERO)) {
            progress.update(0, 200, "");
            progress.update(50, 200, "10 items indexed");
            progress.update(250, 200, "60 items indexed");
        }

        assertThat(printed().lines()).containsExactly("backfill: 0/200 items (0%)", "backfill: 50/200 items (25%), 10 items indexed",
                "backfill: 250/250 items (100%), 60 items indexed");
    }

    @Test
    void lines_withinTheInterval_printTheFirst_andTheLastOnClose() {
        try (ProgressDisplay progress = new ProgressDisplay.Lines("job verify-1", "segments", new PrintStream(err, true,
                StandardCharsets.UTF_8), Duration.ofDays(1))) {
            progress.update(1, 4, "drift 0");
            progress.update(2, 4, "drift 0");
            progress.update(4, 4, "drift 3");
        }

        assertThat(printed().lines()).containsExactly("job verify-1: 1/4 segments (25%), drift 0", "job verify-1: 4/4 segments (100%), drift 3");
    }

    @Test
    void bar_drawsTheTaskAndItsCount_withoutNewLinesPerUpdate() {
        try (ProgressDisplay progress = ProgressDisplay.open("verify", "items", new PrintStream(err, true, StandardCharsets.UTF_8), true)) {
            progress.update(30, 120, "1 missing");
            progress.update(120, 120, "2 missing");
        }

        assertThat(printed()).contains("verify", "100%", "120/120", "2 missing").contains("\r");
    }

    @Test
    void belowBar_erasesTheBarBeforeEveryLine() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream lines = ProgressDisplay.belowBar(new PrintStream(out, true, StandardCharsets.UTF_8));

        lines.print("one\ntw");
        lines.println("o");
        lines.printf("three%n");

        String erase = "\r\u001b[2K";
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(erase + "one\n" + erase + "two" + System.lineSeparator() + erase + "three"
                + System.lineSeparator());
    }
}
