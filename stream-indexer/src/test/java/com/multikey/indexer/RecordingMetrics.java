package com.multikey.indexer;

import java.util.ArrayList;
import java.util.List;

final class RecordingMetrics implements IndexerMetrics {

    final List<BatchSummary> summaries = new ArrayList<>();

    @Override
    public void batchProcessed(BatchSummary summary) {
        summaries.add(summary);
    }

    BatchSummary last() {
        return summaries.get(summaries.size() - 1);
    }
}
