package io.ironflow.deploy.infra;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Port look-ups on the loopback interface. */
public final class Ports {

    private Ports() {
    }

    /** {@code count} distinct ports free right now (all held open together, so no two are the same). */
    public static int[] free(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
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
