package io.ironflow.oneview.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * An appliance that stalls is a bounded wait, whatever part of the answer it stalls in: the JDK's request timeout
 * ends with the response's headers, so an answer whose headers came and whose body never does must time out too
 * (a failover, or a proxy in front of the appliance, does this), or its worker and its node's lane wait for ever.
 */
class OneViewHttpTest {

    @Test
    void anAnswerWhoseBodyNeverComesTimesOut() throws Exception {
        CountDownLatch end = new CountDownLatch(1);
        HttpServer stalled = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stalled.setExecutor(Executors.newCachedThreadPool());
        stalled.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, 100); // 100 bytes announced, none sent
            exchange.getResponseBody().flush();
            try {
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        stalled.start();
        try {
            OneViewHttp http = new OneViewHttp(new ObjectMapper(), URI.create("http://127.0.0.1:" + stalled.getAddress().getPort()),
                    "admin", "secret", 800, Duration.ofMillis(500));
            OneViewUnavailable timedOut = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> assertThrows(OneViewUnavailable.class, () -> http.exchange("GET", "/rest/server-hardware/x", null, null)));
            assertTrue(timedOut.getMessage().contains("within"), timedOut.getMessage());
        } finally {
            end.countDown();
            stalled.stop(0);
        }
    }
}
