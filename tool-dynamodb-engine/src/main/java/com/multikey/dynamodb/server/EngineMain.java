package com.multikey.dynamodb.server;

import java.util.concurrent.CountDownLatch;

/**
 * The engine alone on a port, with no template and no functions: {@code EngineMain [--port N] [--host H]}
 * (port 0: a free one). It prints {@code endpoint http://host:port} on standard output once it serves, and
 * serves until the process is stopped. The tables live in memory only.
 */
public final class EngineMain {

    private EngineMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = 8000;
        String host = "127.0.0.1";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
                case "--host" -> host = value(args, ++i, "--host");
                default -> {
                    System.err.println("usage: EngineMain [--port N] [--host H]   (unknown argument: " + args[i] + ")");
                    System.exit(2);
                }
            }
        }
        EngineServer server = EngineServer.start(new com.multikey.dynamodb.DynamoDbEngine()
                .startTimeToLiveSweeper(EngineServer.DEFAULT_TTL_INTERVAL), host, port);
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
