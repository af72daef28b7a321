package com.multikey.indexer;

import software.amazon.lambda.powertools.metrics.Metrics;
import software.amazon.lambda.powertools.metrics.MetricsBuilder;
import software.amazon.lambda.powertools.metrics.model.MetricUnit;

/** Publishes batch counts as CloudWatch embedded-metric-format log lines through Powertools. */
public final class PowertoolsIndexerMetrics implements IndexerMetrics {

    private final Metrics metrics;

    public PowertoolsIndexerMetrics(String namespace) {
        this.metrics = MetricsBuilder.builder().withNamespace(namespace).withService("stream-indexer").build();
    }

    @Override
    public void batchProcessed(BatchSummary summary) {
        metrics.addMetric("Records", summary.records(), MetricUnit.COUNT);
        metrics.addMetric("IgnoredRecords", summary.ignoredRecords(), MetricUnit.COUNT);
        metrics.addMetric("SkippedRecords", summary.skippedRecords(), MetricUnit.COUNT);
        metrics.addMetric("RejectedFields", summary.rejectedFields(), MetricUnit.COUNT);
        metrics.addMetric("IndexPuts", summary.puts(), MetricUnit.COUNT);
        metrics.addMetric("IndexDeletes", summary.deletes(), MetricUnit.COUNT);
        metrics.addMetric("FailedWrites", summary.failedWrites(), MetricUnit.COUNT);
        metrics.addMetric("FailedRecords", summary.failedRecords(), MetricUnit.COUNT);
        metrics.flush();
    }
}
