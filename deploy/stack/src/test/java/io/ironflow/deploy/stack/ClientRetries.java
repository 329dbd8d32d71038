package io.ironflow.deploy.stack;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends a write as python-ironicclient does: a 503 (no conductor answered within the API's wait, so the intent
 * expired without being applied) is sent again, up to five times, at its retry interval. A retry answered with a 4xx
 * may mean an earlier attempt was started by a conductor just before it expired (the name is taken now, the node
 * has moved on): {@link Sent#answered} takes that as done, and the caller waits for the effect.
 */
final class ClientRetries {

    /** python-ironicclient's DEFAULT_MAX_RETRIES and DEFAULT_RETRY_INTERVAL. */
    private static final int RETRIES = 5;
    private static final Duration INTERVAL = Duration.ofSeconds(2);

    private ClientRetries() {
    }

    /** The last answer, and whether it came to a retry. */
    record Sent(HttpResponse<String> response, boolean retried) {

        int status() {
            return response.statusCode();
        }

        /** {@code expected}, or a 4xx to a retry (an earlier attempt may have been applied); never a 5xx. */
        boolean answered(int expected) {
            return status() == expected || retried && status() / 100 == 4;
        }

        @Override
        public String toString() {
            return status() + (retried ? " (retried)" : "") + " " + response.body();
        }
    }

    static Sent send(HttpClient http, HttpRequest request) throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        int retry = 0;
        while (response.statusCode() == 503 && retry++ < RETRIES) {
            Thread.sleep(INTERVAL.toMillis()); // the client's pause, not a wait for a condition
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        }
        return new Sent(response, retry > 0);
    }
}
