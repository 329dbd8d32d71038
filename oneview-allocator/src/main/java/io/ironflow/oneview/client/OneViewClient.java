package io.ironflow.oneview.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The OneView operations the allocator needs, over {@link OneViewHttp}: read server hardware, build a profile
 * from a template ({@code new-profile}, then POST with {@code serverProfileTemplateUri = ""} so later template
 * edits do not cascade, as Ironic did), delete a profile, set power; every change is a task, followed until it
 * ends ({@code Completed} or {@code Warning}: done; {@code Error}, {@code Terminated}, {@code Killed}: a
 * {@link OneViewFailure} with the task's message) or the task deadline passes.
 */
@ApplicationScoped
public class OneViewClient {

    private static final Set<String> RUNNING = Set.of("New", "Starting", "Pending", "Running", "Suspended", "Stopping");
    private static final Set<String> SUCCEEDED = Set.of("Completed", "Warning");
    /** Server hardware states while a profile task runs on it. */
    private static final Set<String> SETTLING = Set.of("ApplyingProfile", "RemovingProfile");

    private final OneViewHttp http;
    private final Duration taskTimeout;
    private final Duration taskPoll;

    OneViewClient(OneViewHttp http,
            @ConfigProperty(name = "ironflow.oneview.task-timeout") Duration taskTimeout,
            @ConfigProperty(name = "ironflow.oneview.task-poll-interval") Duration taskPoll) {
        this.http = http;
        this.taskTimeout = taskTimeout;
        this.taskPoll = taskPoll;
    }

    /** {@code GET} a server hardware by URI; its {@code serverProfileUri} is null when no profile is applied. */
    public JsonNode serverHardware(String uri) {
        JsonNode hardware = http.exchange("GET", uri, null, null).body();
        if (!hardware.isObject()) { // read as free hardware, an empty answer would let a profile be forgotten
            throw new OneViewFailure(200, "BAD_ANSWER", "OneView answered GET " + uri + " without the server hardware.");
        }
        return hardware;
    }

    /**
     * {@code hardware} (as just read from {@code uri}) once its profile is no longer being applied or removed:
     * read again every task poll until its {@code state} settles, up to the task timeout or {@code until} (null:
     * the task timeout alone), then as it is.
     */
    public JsonNode settled(String uri, JsonNode hardware, Instant until) {
        long deadline = System.nanoTime() + patience(until).toNanos();
        while (SETTLING.contains(hardware.path("state").asText()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(taskPoll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OneViewUnavailable("interrupted while waiting for " + uri + " to settle", e);
            }
            hardware = serverHardware(uri);
        }
        return hardware;
    }

    /** Every server hardware, following {@code nextPageUri}. */
    public java.util.List<JsonNode> allServerHardware() {
        java.util.List<JsonNode> all = new java.util.ArrayList<>();
        String next = "/rest/server-hardware?start=0&count=500";
        while (next != null) {
            JsonNode page = http.exchange("GET", next, null, null).body();
            page.path("members").forEach(all::add);
            next = page.path("nextPageUri").isTextual() ? page.path("nextPageUri").asText() : null;
        }
        return all;
    }

    public JsonNode profile(String uri) {
        return http.exchange("GET", uri, null, null).body();
    }

    /**
     * Creates a profile named {@code name}, with {@code description}, from the template on the hardware, following
     * its task until it ends or {@code until} (null: the task timeout) passes; returns the new profile's URI.
     */
    public String createProfileFromTemplate(String templateUri, String serverHardwareUri, String name, String description,
            Instant until) {
        ObjectNode profile = (ObjectNode) http.exchange("GET", templateUri + "/new-profile", null, null).body();
        profile.put("name", name);
        profile.put("description", description);
        profile.put("serverHardwareUri", serverHardwareUri);
        profile.put("serverProfileTemplateUri", "");
        JsonNode task = awaitTask(http.exchange("POST", "/rest/server-profiles", profile, null), until);
        return task.path("associatedResource").path("resourceUri").asText();
    }

    /**
     * Deletes a profile (the task fails if the hardware is powered on), following the task until it ends or
     * {@code until} (null: the task timeout) passes.
     */
    public void deleteProfile(String profileUri, Instant until) {
        awaitTask(http.exchange("DELETE", profileUri, null, "*"), until);
    }

    /**
     * Powers the hardware off with PressAndHold (Ironic's "power off"), following the task until it ends or
     * {@code until} (null: the task timeout) passes.
     */
    public void powerOff(String serverHardwareUri, Instant until) {
        setPower(serverHardwareUri, "Off", "PressAndHold", until);
    }

    public void setPower(String serverHardwareUri, String state, String control) {
        setPower(serverHardwareUri, state, control, null);
    }

    /** Sets power and follows the task until it ends, or until {@code deadline} (null: the task timeout) passes. */
    public void setPower(String serverHardwareUri, String state, String control, Instant deadline) {
        awaitTask(http.exchange("PUT", serverHardwareUri + "/powerState",
                Map.of("powerState", state, "powerControl", control), null), deadline);
    }

    private JsonNode awaitTask(OneViewHttp.Answer started) {
        return awaitTask(started, null);
    }

    /** The task timeout, or less when {@code until} comes sooner. */
    private Duration patience(Instant until) {
        return until == null ? taskTimeout
                : Duration.ofMillis(Math.max(0, Math.min(taskTimeout.toMillis(), until.toEpochMilli() - System.currentTimeMillis())));
    }

    private JsonNode awaitTask(OneViewHttp.Answer started, Instant until) {
        String uri = started.location() != null ? started.location() : started.body().path("uri").asText(null);
        if (uri == null) {
            throw new OneViewFailure(started.status(), "NO_TASK", "OneView accepted the request without a task to follow.");
        }
        Duration patience = patience(until);
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            JsonNode task = http.exchange("GET", uri, null, null).body();
            String state = task.path("taskState").asText();
            if (SUCCEEDED.contains(state)) {
                return task;
            }
            if (!RUNNING.contains(state)) {
                JsonNode error = task.path("taskErrors").path(0);
                throw new OneViewFailure(0, error.path("errorCode").asText("TASK_" + state.toUpperCase()),
                        error.path("message").asText("OneView task " + uri + " ended in " + state + ": "
                                + task.path("taskStatus").asText("")));
            }
            if (System.nanoTime() > deadline) {
                throw new OneViewFailure(0, "TASK_TIMEOUT", "OneView task " + uri + " (" + task.path("name").asText()
                        + ") did not end within " + patience.toMillis() / 1000.0 + " s; it was " + state + ".");
            }
            try {
                Thread.sleep(taskPoll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OneViewUnavailable("interrupted while following task " + uri, e);
            }
        }
    }
}
