package com.multikey.local;

import com.multikey.clikit.ProgressDisplay;

import java.util.ArrayList;
import java.util.List;

/** The checks a demo makes, in order, each shown on the progress display as it is made. */
final class DemoChecks {

    /** One expectation and what was observed. */
    record Check(String description, Object expected, Object actual) {
        boolean passed() {
            return expected.equals(actual);
        }
    }

    private final List<Check> checks = new ArrayList<>();
    private final int planned;
    private final ProgressDisplay progress;

    /**
     * @param planned  how many checks the demo makes when all goes well (one more for each wait that timed out)
     * @param progress where each check is shown
     */
    DemoChecks(int planned, ProgressDisplay progress) {
        this.planned = planned;
        this.progress = progress;
        progress.update(0, planned, "");
    }

    synchronized void add(Check check) {
        checks.add(check);
        progress.update(checks.size(), planned, failed() + " failed");
    }

    synchronized List<Check> all() {
        return List.copyOf(checks);
    }

    private long failed() {
        return checks.stream().filter(c -> !c.passed()).count();
    }
}
