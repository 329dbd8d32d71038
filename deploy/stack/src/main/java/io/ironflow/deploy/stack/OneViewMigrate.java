package io.ironflow.deploy.stack;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * {@code ./ironflow oneview-migrate}: the spec's migration from OneView pre-allocation to dynamic allocation,
 * carried out by the oneview-allocator (its admin call {@code POST /admin/migrate-to-dynamic-allocation}), which
 * reads every oneview node and OneView, and changes nodes only through intents. This class only asks and prints
 * the plan or the outcome, one line per pre-allocated node. Exit 0 when every step was planned or done, 1 when a
 * step was skipped for a reason (OneView failed, the node is in a state the migration leaves for later) or the
 * allocator did not answer in time.
 */
final class OneViewMigrate {

    private OneViewMigrate() {
    }

    /** @param authorization the Authorization header when the allocator authenticates (the stack's admin), or null */
    static int run(URI allocator, boolean dryRun, Duration deadline, String authorization, PrintWriter out, PrintWriter err) {
        URI uri = allocator.resolve("/admin/migrate-to-dynamic-allocation" + (dryRun ? "?dry_run=true" : ""));
        HttpResponse<String> response;
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(deadline).POST(HttpRequest.BodyPublishers.noBody());
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
                    .send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            err.println("oneview-migrate: the oneview-allocator does not answer at " + allocator + " (is ./ironflow up running?)");
            return 1;
        } catch (HttpTimeoutException e) {
            err.println("oneview-migrate: the oneview-allocator did not finish within " + deadline.toSeconds() + " s");
            return 1;
        } catch (IOException e) {
            err.println("oneview-migrate: " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
        if (response.statusCode() != 200) {
            err.println("oneview-migrate: the oneview-allocator answered " + response.statusCode() + ": " + response.body().strip());
            return 1;
        }
        JsonArray steps = new JsonArray(response.body());
        out.println((dryRun ? "Plan (dry run, nothing changed): " : "Migration: ") + steps.size()
                + " pre-allocated oneview node(s)");
        boolean skipped = false;
        for (int i = 0; i < steps.size(); i++) {
            JsonObject step = steps.getJsonObject(i);
            skipped |= "skip".equals(step.getString("action"));
            out.printf("  %s  %-10s  %s  profile %s: %s (%s)%n", step.getString("node"), step.getString("provisionState"),
                    step.getString("serverHardwareUri"), step.getString("profile", "none"), step.getString("action"),
                    step.getString("outcome"));
        }
        out.flush();
        return skipped ? 1 : 0;
    }
}
