package com.multikey.emulator.services;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Makes the local endpoints' HTTP servers. The JDK's server leaves Nagle's algorithm on unless told otherwise, and
 * a response written as headers then body then waits for the client's delayed acknowledgement (about 40 ms on
 * Linux) before the body leaves: every local call would pay it. The setting is read once, when the first server
 * of the process starts, so each server is made here.
 */
public final class LoopbackServers {

    private static final String NO_DELAY = "sun.net.httpserver.nodelay";

    private LoopbackServers() {
    }

    /** Threads for a server's handlers: daemons (they never keep the JVM alive), numbered after {@code name}. */
    public static java.util.concurrent.ThreadFactory daemonThreads(String name) {
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    public static HttpServer create(String host, int port) throws IOException {
        if (System.getProperty(NO_DELAY) == null) {
            System.setProperty(NO_DELAY, "true");
        }
        return HttpServer.create(new InetSocketAddress(host, port), 0);
    }
}
