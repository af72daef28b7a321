package com.multikey.clikit;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Progress of long work on standard error: a bar (me.tongfei:progressbar) when someone watches a terminal, plain
 * lines ({@code backfill: 1200/5000 items (24%), 300 items indexed}) at most every few seconds otherwise, so a log or a
 * CI job keeps a readable record. Standard output is left to the result.
 */
public interface ProgressDisplay extends AutoCloseable {

    /** How often plain lines are printed at most (the last state is always printed on close). */
    Duration LINES_EVERY = Duration.ofSeconds(5);

    /**
     * @param done   units done so far
     * @param total  units in all, an estimate (DynamoDB's item counts lag by hours): a {@code done} past it raises it
     * @param detail what else to show, e.g. items indexed or drift found
     */
    void update(long done, long total, String detail);

    @Override
    void close();

    static ProgressDisplay open(String task, String unit, PrintStream err, boolean terminal) {
        return terminal ? new Bar(task, unit, err) : new Lines(task, unit, err, LINES_EVERY);
    }

    /**
     * Standard output for lines printed while a bar is drawn on the same terminal: each line first erases the bar,
     * which redraws itself below the line at its next update.
     */
    static PrintStream belowBar(PrintStream out) {
        return new PrintStream(new ClearingLines(out), true, StandardCharsets.UTF_8);
    }

    /** Writes "carriage return, erase line" before the first byte of every line. */
    final class ClearingLines extends FilterOutputStream {
        private static final byte[] ERASE = "\r\u001b[2K".getBytes(StandardCharsets.US_ASCII);
        private boolean lineStart = true;

        ClearingLines(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            if (lineStart) {
                out.write(ERASE);
            }
            out.write(b);
            lineStart = b == '\n';
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            int start = offset;
            for (int i = offset; i < offset + length; i++) {
                if (lineStart) {
                    out.write(bytes, start, i - start);
                    out.write(ERASE);
                    start = i;
                }
                lineStart = bytes[i] == '\n';
            }
            out.write(bytes, start, offset + length - start);
        }
    }

    /** Lines, for a log: the first update, then one at most every {@code every}, and the last on close. */
    final class Lines implements ProgressDisplay {
        private final String task;
        private final String unit;
        private final PrintStream err;
        private final long everyNanos;
        private long printedAt;
        private String last;
        private boolean lastPrinted = true;

        Lines(String task, String unit, PrintStream err, Duration every) {
            this.task = task;
            this.unit = unit;
            this.err = err;
            this.everyNanos = every.toNanos();
        }

        @Override
        public synchronized void update(long done, long total, String detail) {
            long all = Math.max(total, done);
            long percent = all == 0 ? 100 : done * 100 / all;
            last = "%s: %d/%d %s (%d%%)%s".formatted(task, done, all, unit, percent, detail.isEmpty() ? "" : ", " + detail);
            lastPrinted = false;
            long now = System.nanoTime();
            if (printedAt == 0 || now - printedAt >= everyNanos) {
                err.println(last);
                printedAt = now;
                lastPrinted = true;
            }
        }

        @Override
        public synchronized void close() {
            if (!lastPrinted) {
                err.println(last);
                lastPrinted = true;
            }
        }
    }

    /** A bar that redraws itself in place, with rate and ETA. */
    final class Bar implements ProgressDisplay {
        private final ProgressBar bar;

        Bar(String task, String unit, PrintStream err) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(-1).setUnit(" " + unit, 1).showSpeed()
                    .setStyle(ProgressBarStyle.UNICODE_BLOCK).setUpdateIntervalMillis(250)
                    .setConsumer(new ConsoleProgressBarConsumer(err)).build();
        }

        @Override
        public synchronized void update(long done, long total, String detail) {
            bar.maxHint(Math.max(total, done));
            bar.stepTo(done);
            bar.setExtraMessage(detail.isEmpty() ? "" : " " + detail);
        }

        @Override
        public synchronized void close() {
            bar.close();
        }
    }
}
