package io.ironflow.teardown.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A peer that sends its headers and then stalls is a timeout, not a caller held for ever; a whole answer is read. */
class WholeAnswersTest {

    private final CountDownLatch released = new CountDownLatch(1);
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/stall", exchange -> {
            exchange.sendResponseHeaders(200, 100); // promises 100 bytes, sends 2
            OutputStream body = exchange.getResponseBody();
            body.write("{}".getBytes(StandardCharsets.UTF_8));
            body.flush();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.createContext("/whole", exchange -> {
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    @AfterEach
    void stop() {
        released.countDown();
        server.stop(0);
    }

    @Test
    void aBodyThatStallsAfterTheHeadersIsATimeout() {
        HttpClient http = HttpClient.newHttpClient();
        long started = System.nanoTime();
        HttpTimeoutException timeout = assertThrows(HttpTimeoutException.class, () -> WholeAnswers.send(http,
                HttpRequest.newBuilder(uri("/stall")).timeout(Duration.ofMillis(500)).GET().build()));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "gave up after " + took);
        assertTrue(timeout.getMessage().contains("not answered whole within"), timeout.getMessage());
    }

    @Test
    void aWholeAnswerIsRead() throws Exception {
        assertEquals("{\"ok\":true}", WholeAnswers.send(HttpClient.newHttpClient(),
                HttpRequest.newBuilder(uri("/whole")).timeout(Duration.ofSeconds(5)).GET().build()).body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }
}
