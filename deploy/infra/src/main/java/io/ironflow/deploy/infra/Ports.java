package io.ironflow.deploy.infra;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;

/**
 * Port look-ups on the loopback interface. Free ports are drawn at random from below the kernel's ephemeral range:
 * a port the OS hands out for {@code bind(0)} comes from that range, which is also where every outgoing connection
 * (Kafka, JDBC, HTTP clients: thousands in a stack test) gets its local port, so a port found free there could be
 * taken by a client socket in the seconds before the service that was given it binds it (it happened to an etcd
 * member under load). Below the range, only another listener can take it.
 */
public final class Ports {

    private static final int LOWEST = 10_000;
    private static final RandomGenerator RANDOM = new SecureRandom();

    private Ports() {
    }

    /** {@code count} distinct ports free right now (all held open together, so no two are the same). */
    public static int[] free(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            int below = ephemeralRangeStart();
            for (int i = 0; i < count; i++) {
                sockets[i] = below - LOWEST >= 1_000 ? bindBelow(below) : null;
                if (sockets[i] == null) {
                    sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                }
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    /** A socket bound to a random free port in [LOWEST, below), or null when 200 draws found none. */
    private static ServerSocket bindBelow(int below) {
        for (int attempt = 0; attempt < 200; attempt++) {
            ServerSocket socket = null;
            try {
                socket = new ServerSocket();
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), RANDOM.nextInt(LOWEST, below)), 1);
                return socket;
            } catch (IOException taken) {
                close(socket);
            }
        }
        return null;
    }

    private static void close(ServerSocket socket) {
        try {
            if (socket != null) {
                socket.close();
            }
        } catch (IOException ignored) {
            // nothing was bound
        }
    }

    /** The first port of Linux's ephemeral range (32768 by default); elsewhere, IANA's 49152. */
    static int ephemeralRangeStart() {
        try {
            // read by lines: Files.readString trusts the size /proc reports and returns one character
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0);
            return Integer.parseInt(range.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 49_152;
        }
    }

    /** Whether something already listens on {@code port} of 127.0.0.1 or can otherwise not be bound there. */
    public static boolean inUse(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
