package com.multikey.local;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Every port {@code start} listens on by default ({@code --port}, {@code --eventbridge-port}, ...), taken while a test
 * runs, as another program may hold them on a developer's machine: a test that leaves one of them at its default fails
 * whether or not the machine has it free. A port something else holds already is taken too, and left to it.
 */
final class DefaultPortsTaken implements AutoCloseable {

    private final List<ServerSocket> held;
    private final List<Integer> ports;

    private DefaultPortsTaken(List<ServerSocket> held, List<Integer> ports) {
        this.held = held;
        this.ports = ports;
    }

    /** Takes start's default ports on the loopback address. */
    static DefaultPortsTaken take() {
        List<Integer> ports = defaultPorts();
        List<ServerSocket> held = new ArrayList<>();
        for (int port : ports) {
            ServerSocket socket = null;
            try {
                socket = new ServerSocket();
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                held.add(socket);
            } catch (BindException e) {
                close(socket);
            } catch (IOException e) {
                close(socket);
                held.forEach(DefaultPortsTaken::close);
                throw new UncheckedIOException("cannot take port " + port, e);
            }
        }
        return new DefaultPortsTaken(held, ports);
    }

    /** The default of each of start's options that names a port, read from the command itself. */
    static List<Integer> defaultPorts() {
        return CommandSpec.forAnnotatedObject(new StartCommand()).options().stream()
                .filter(option -> option.longestName().endsWith("port"))
                .map(OptionSpec::defaultValue)
                .map(Integer::valueOf)
                .toList();
    }

    List<Integer> ports() {
        return ports;
    }

    @Override
    public void close() {
        held.forEach(DefaultPortsTaken::close);
    }

    private static void close(ServerSocket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
