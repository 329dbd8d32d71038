package io.ironflow.teardown.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An HTTP exchange whose whole answer, body included, has the request's timeout. The JDK client's own timeout
 * stops counting when the headers arrive, so a peer that stalls after them (a proxy, an overloaded API, an etcd
 * member whose disk hangs) would hold the caller, and the step it runs, for ever. Here the exchange is cancelled and
 * the caller gets an {@link HttpTimeoutException}, an IOException like any other unanswered call.
 */
public final class WholeAnswers {

    private WholeAnswers() {
    }

    /** {@code request}'s answer as text; the request must carry a timeout. */
    public static HttpResponse<String> send(HttpClient http, HttpRequest request) throws IOException, InterruptedException {
        Duration within = request.timeout()
                .orElseThrow(() -> new IllegalArgumentException("a request without a timeout: " + request.uri()));
        CompletableFuture<HttpResponse<String>> answer = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
        try {
            return answer.get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new HttpTimeoutException(request.method() + " " + request.uri() + " was not answered whole within " + within);
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }
}
