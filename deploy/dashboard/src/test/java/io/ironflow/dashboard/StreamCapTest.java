package io.ironflow.dashboard;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The event streams are capped (issue 58: a client could open them without end): with
 * {@code ironflow.dashboard.max-streams=2}, a third stream is 503 with the dashboard's {@code error_message}
 * while two are open, and is served again once a page closes its stream.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@TestProfile(StreamCapTest.TwoStreams.class)
class StreamCapTest {

    /** Two streams at most. */
    public static class TwoStreams implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("ironflow.dashboard.max-streams", "2");
        }
    }

    @TestHTTPResource("/api/stream")
    URL stream;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aStreamOverTheCapIs503UntilAnotherCloses() throws Exception {
        HttpResponse<InputStream> first = open();
        HttpResponse<InputStream> second = open();
        try {
            assertEquals(200, first.statusCode());
            assertEquals(200, second.statusCode());
            firstData(first);
            firstData(second);
            // read as a stream: were it served (no cap), its body would never end
            HttpResponse<InputStream> third = open();
            String body;
            try (InputStream in = third.body()) {
                body = third.statusCode() == 503 ? new String(in.readAllBytes(), StandardCharsets.UTF_8) : "";
            }
            assertEquals(503, third.statusCode(), "a third stream while two are open");
            assertTrue(body.contains("\"error_message\"") && body.contains("at most 2 event streams"), body);
        } finally {
            first.body().close();
        }
        try {
            await().atMost(Duration.ofSeconds(15)).until(() -> {
                HttpResponse<InputStream> again = open();
                again.body().close();
                return again.statusCode() == 200;
            });
        } finally {
            second.body().close();
        }
    }

    private HttpResponse<InputStream> open() throws Exception {
        return client.send(request(), HttpResponse.BodyHandlers.ofInputStream());
    }

    private HttpRequest request() throws Exception {
        return HttpRequest.newBuilder(URI.create(stream.toString())).header("Accept", "text/event-stream").build();
    }

    private static void firstData(HttpResponse<InputStream> response) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        for (String line; (line = lines.readLine()) != null; ) {
            if (line.startsWith("data:")) {
                return;
            }
        }
        throw new AssertionError("the stream ended before its first tick");
    }
}
