package com.multikey.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.local.support.LambdaEvents;
import com.multikey.local.support.LocalContext;
import com.multikey.local.support.LocalDynamoDb;
import com.multikey.local.support.SamTemplate;
import com.multikey.local.support.StreamTail;
import com.multikey.local.support.TemplateEnvironment;
import com.multikey.local.support.TemplateTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The template's tables in embedded DynamoDB Local and the stream indexer function as the template
 * declares it (handler class, environment), fed from the app table's stream.
 */
final class LocalPipeline implements AutoCloseable {

    static final String INDEXER = "StreamIndexerFunction";

    final SamTemplate template;
    final LocalDynamoDb dynamoDbLocal;
    final DynamoDbClient dynamoDb;
    final Map<String, String> tables;
    private final RequestHandler<DynamodbEvent, StreamsEventResponse> indexer;
    private final StreamTail appStream;

    LocalPipeline(SamTemplate template) {
        this.template = template;
        this.dynamoDbLocal = LocalDynamoDb.start();
        this.dynamoDb = dynamoDbLocal.client();
        this.tables = TemplateTables.create(template, dynamoDb);
        this.indexer = handler(INDEXER);
        this.appStream = new StreamTail(dynamoDb, dynamoDbLocal.streamsClient(), tables.get("AppTable"));
    }

    String table(String logicalId) {
        return tables.get(logicalId);
    }

    /** The function's environment as deployed, pointed at DynamoDB Local. */
    Map<String, String> environment(String function) {
        Map<String, String> env = new LinkedHashMap<>(TemplateEnvironment.of(template, function, tables));
        env.put("AWS_REGION", LocalDynamoDb.REGION.id());
        env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDbLocal.endpoint().toString());
        env.put("AWS_ACCESS_KEY_ID", "local");
        env.put("AWS_SECRET_ACCESS_KEY", "local");
        return env;
    }

    /** An instance of the handler class the template names for the function, built with its environment. */
    @SuppressWarnings("unchecked")
    <I, O> RequestHandler<I, O> handler(String function) {
        String handler = (String) template.properties(function).get("Handler");
        if (handler == null || !handler.contains("::")) {
            throw new IllegalArgumentException(function + ": Handler must look like package.Class::method, got " + handler);
        }
        String className = handler.substring(0, handler.indexOf("::"));
        try {
            Class<?> type = Class.forName(className);
            return (RequestHandler<I, O>) type.getConstructor(Map.class).newInstance(environment(function));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(function + ": cannot create " + className + " with an environment map", e);
        }
    }

    /** Delivers one event to the indexer as Lambda would. */
    StreamsEventResponse invokeIndexer(DynamodbEvent event) {
        return indexer.handleRequest(event, LocalContext.of(INDEXER));
    }

    /** Delivers every new app table stream record to the indexer, in batches of 100; returns the record count. */
    int pump() {
        List<Record> records = appStream.poll();
        for (int from = 0; from < records.size(); from += 100) {
            List<Record> batch = records.subList(from, Math.min(records.size(), from + 100));
            StreamsEventResponse response = invokeIndexer(LambdaEvents.dynamodbEvent(batch, appStream.streamArn()));
            if (!response.getBatchItemFailures().isEmpty()) {
                throw new IllegalStateException("the indexer reported failed records: " + response.getBatchItemFailures());
            }
        }
        return records.size();
    }

    @Override
    public void close() {
        dynamoDb.close();
        dynamoDbLocal.close();
    }
}
