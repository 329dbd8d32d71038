package io.ironflow.deploy.stack;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM for {@link SupervisorTest}, on nothing but the JDK: serves {@code /q/health/live} on
 * {@code -Dsick.port}, UP until a file {@code sick-<its pid>} appears in {@code -Dsick.dir}, then as
 * {@code -Dsick.then} says: {@code 503} (DOWN), {@code hang} (never answers) or {@code exit} (exits with code 3 at
 * once, on its own, while still answering UP).
 */
public final class SickService {

    public static void main(String[] args) throws IOException {
        String then = System.getProperty("sick.then");
        Path sick = Path.of(System.getProperty("sick.dir"), "sick-" + ProcessHandle.current().pid());
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.getInteger("sick.port")), 0);
        server.createContext("/q/health/live", exchange -> {
            if (!Files.exists(sick) || then.equals("exit")) {
                exchange.sendResponseHeaders(200, -1);
            } else if (then.equals("503")) {
                exchange.sendResponseHeaders(503, -1);
            } else {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.close();
        });
        server.start();
        while (then.equals("exit")) {
            if (Files.exists(sick)) {
                System.exit(3);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
