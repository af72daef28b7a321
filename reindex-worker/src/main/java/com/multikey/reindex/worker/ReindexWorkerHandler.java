package com.multikey.reindex.worker;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.multikey.common.ClientFactory;
import com.multikey.common.EmfMetrics;
import com.multikey.common.Environment;
import com.multikey.common.StructuredLog;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexRemoval;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.SegmentBackfill;
import com.multikey.reindex.SegmentVerifier;
import com.multikey.reindex.SegmentWork;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Lambda entry point of the reindex worker: a {@code start} request records a job and invokes this function
 * asynchronously once per segment; a {@code segment} request works one segment from its checkpoint and
 * continues in a new asynchronous invocation before its time runs out. See {@link ReindexWorker}.
 */
public final class ReindexWorkerHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private final ReindexWorker worker;
    private final WorkerRequest.Defaults defaults;

    public ReindexWorkerHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public ReindexWorkerHandler(Map<String, String> environment) {
        this(WorkerConfig.of(environment));
    }

    private ReindexWorkerHandler(WorkerConfig config) {
        this(build(config), config.defaults());
    }

    ReindexWorkerHandler(ReindexWorker worker, WorkerRequest.Defaults defaults) {
        this.worker = worker;
        this.defaults = defaults;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        try {
            return answer(worker.handle(WorkerRequest.of(event, defaults), () -> context.getRemainingTimeInMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Map<String, Object> answer(ReindexWorker.Outcome outcome) {
        Map<String, Object> answer = new LinkedHashMap<>();
        switch (outcome) {
            case ReindexWorker.Outcome.Started started -> {
                answer.put("jobId", started.jobId());
                answer.put("resumed", started.resumed());
                answer.put("segmentsInvoked", started.segmentsInvoked());
            }
            case ReindexWorker.Outcome.Worked worked -> {
                answer.put("jobId", worked.jobId());
                answer.put("segment", worked.segment());
                answer.put("pages", worked.pages());
                answer.put("items", worked.counts().items());
                answer.put("status", worked.status().name());
            }
        }
        return answer;
    }

    private static ReindexWorker build(WorkerConfig config) {
        ClientFactory clients = new ClientFactory(config.environment());
        DynamoDbClient dynamoDb = clients.dynamoDb();
        LambdaClient lambda = clients.configure(LambdaClient.builder(), "LAMBDA").httpClient(ClientFactory.httpClient()).build();
        // every declared index in the layouts the stack's grid state keeps
        GridLayoutStore gridLayout = GridLayoutStore.fromEnvironment(dynamoDb, config.indexTable(), config.definitions(), true,
                config.environment());
        Function<JobSpec, SegmentWork> work = spec -> switch (spec.kind()) {
            case BACKFILL -> new SegmentBackfill(dynamoDb, config.appTable(), config.indexTable(),
                    IndexScope.of(gridLayout.current(), spec.index()), spec.writeUnitsPerSegment(), spec.pageSize());
            case VERIFY, REPAIR -> new SegmentVerifier(dynamoDb, config.appTable(), config.indexTable(),
                    IndexScope.of(gridLayout.current(), spec.index()), spec.kind() == JobSpec.Kind.REPAIR,
                    spec.writeUnitsPerSegment(), spec.pageSize(), found -> { });
            case REMOVE -> new IndexRemoval(dynamoDb, config.indexTable(), gridLayout.current(), spec.index().orElseThrow(),
                    spec.writeUnitsPerSegment(), spec.pageSize());
        };
        return new ReindexWorker(new JobStore(dynamoDb, config.jobsTable()), work,
                new LambdaSegmentInvoker(lambda, config.functionName()),
                new WorkerMetrics(EmfMetrics.toStandardOutput(config.metricsNamespace(), WorkerMetrics.SERVICE)),
                StructuredLog.forClass(ReindexWorker.class), Clock.systemUTC(), config.safetyMargin());
    }

    /** The worker's settings, from its environment. */
    record WorkerConfig(Map<String, String> environment, String appTable, String indexTable, String jobsTable, String functionName,
                        IndexDefinitions definitions, String metricsNamespace, Duration safetyMargin, WorkerRequest.Defaults defaults) {

        static WorkerConfig of(Map<String, String> env) {
            int concurrency = integer(env, "WORKER_CONCURRENCY", 10);
            return new WorkerConfig(env, Environment.required(env, "APP_TABLE_NAME"), Environment.required(env, "INDEX_TABLE_NAME"),
                    Environment.required(env, "JOBS_TABLE_NAME"), Environment.required(env, "WORKER_FUNCTION_NAME"),
                    IndexDefinitions.fromEnvironment(env), env.getOrDefault("METRICS_NAMESPACE", "Multikey"),
                    Duration.ofSeconds(integer(env, "SAFETY_MARGIN_SECONDS", 60)),
                    new WorkerRequest.Defaults(integer(env, "DEFAULT_TOTAL_SEGMENTS", 200),
                            integer(env, "DEFAULT_WRITE_UNITS_PER_SECOND", 1000), concurrency, integer(env, "PAGE_SIZE", 100)));
        }

        private static int integer(Map<String, String> env, String name, int fallback) {
            String value = env.get(name);
            if (value == null || value.isBlank()) {
                return fallback;
            }
            try {
                return Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalStateException(name + " must be a whole number, got " + value);
            }
        }
    }
}
