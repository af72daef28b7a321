package com.multikey.dynamodb.server;

import com.multikey.dynamodb.durable.DurableEngine;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The engine alone on a port, with no template and no functions: {@code EngineMain [--port N] [--host H]
 * [--data-dir DIR]} (port 0: a free one). It prints {@code endpoint http://host:port} on standard output once it
 * serves, and serves until the process is stopped. The tables live in memory, or with {@code --data-dir} in that
 * directory across restarts ({@link DurableEngine}).
 */
public final class EngineMain {

    private EngineMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = 8000;
        String host = "127.0.0.1";
        Path dataDirectory = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
                case "--host" -> host = value(args, ++i, "--host");
                case "--data-dir" -> dataDirectory = Path.of(value(args, ++i, "--data-dir"));
                default -> {
                    System.err.println("usage: EngineMain [--port N] [--host H] [--data-dir DIR]   (unknown argument: " + args[i] + ")");
                    System.exit(2);
                }
            }
        }
        EngineServer server = dataDirectory == null
                ? EngineServer.start(new com.multikey.dynamodb.DynamoDbEngine().startTimeToLiveSweeper(EngineServer.DEFAULT_TTL_INTERVAL), host, port)
                : EngineServer.start(DurableEngine.open(dataDirectory).startTimeToLiveSweeper(EngineServer.DEFAULT_TTL_INTERVAL), host, port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "dynamodb-engine-shutdown"));
        System.out.println("endpoint " + server.endpoint());
        System.out.flush();
        new CountDownLatch(1).await();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            System.err.println(option + " needs a value");
            System.exit(2);
        }
        return args[i];
    }
}
