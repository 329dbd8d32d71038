package io.ironflow.oneview.simulator;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The simulated appliance's state and rules, free of HTTP: users and sessions, server hardware, templates,
 * server profiles and the asynchronous tasks that change them. A server hardware carries at most one profile;
 * creating one reserves the hardware at once ({@code ApplyingProfile}) and the task applies it; a profile is
 * removed only from powered-off hardware. Tasks move New → Running → Completed, or Error with
 * {@code taskErrors}, one phase per {@link #tick} after {@code taskPhase}. Thread-safe (one lock).
 * <p>
 * With a state file it keeps what a real appliance keeps across its own restarts: server hardware, templates,
 * profiles and tasks are written after every change (to a temporary file, then moved over the old one
 * atomically, so a crash leaves the old state or the new, never half of one) and read back on start instead of
 * the inventory. Sessions are not kept: clients log in again after a restart (401). A task that was still
 * running when the appliance stopped ends {@code Terminated} on start, and what it had begun is undone (a
 * profile being created is gone, one being deleted stays, power that was changing is reported as it was).
 */
public final class Appliance {

    public static final int MINIMUM_API_VERSION = 120;
    public static final int CURRENT_API_VERSION = 2000;
    static final Set<String> POWER_STATES = Set.of("On", "Off");
    static final Set<String> POWER_CONTROLS = Set.of("MomentaryPress", "PressAndHold", "ColdBoot", "Reset");

    private final Map<String, String> users = new LinkedHashMap<>();
    private final Map<String, Long> sessions = new LinkedHashMap<>();
    private final Map<String, JsonObject> hardware = new LinkedHashMap<>();
    private final Map<String, JsonObject> templates = new LinkedHashMap<>();
    private final Map<String, JsonObject> profiles = new LinkedHashMap<>();
    private final Map<String, Task> tasks = new LinkedHashMap<>();
    private final Faults faults;
    private final Duration taskPhase;
    private final Duration sessionIdleTimeout;
    private final Path stateFile;
    private long etags;

    /** A task and what it does when it runs and when it ends. */
    private static final class Task {
        final JsonObject json;
        final Consumer<JsonObject> onRunning;
        final Runnable onCompleted;
        final Runnable onFailed;
        final long phaseMillis;
        long phaseEndsAt;

        Task(JsonObject json, Consumer<JsonObject> onRunning, Runnable onCompleted, Runnable onFailed, long phaseMillis,
                long phaseEndsAt) {
            this.json = json;
            this.onRunning = onRunning;
            this.onCompleted = onCompleted;
            this.onFailed = onFailed;
            this.phaseMillis = phaseMillis;
            this.phaseEndsAt = phaseEndsAt;
        }
    }

    public Appliance(Inventory inventory, Faults faults, Duration taskPhase, Duration sessionIdleTimeout) {
        this(inventory, faults, taskPhase, sessionIdleTimeout, null);
    }

    /** An appliance that keeps its state in {@code stateFile} (null: in memory only), read back if it exists. */
    public Appliance(Inventory inventory, Faults faults, Duration taskPhase, Duration sessionIdleTimeout, Path stateFile) {
        this.faults = faults;
        this.taskPhase = taskPhase;
        this.sessionIdleTimeout = sessionIdleTimeout;
        this.stateFile = stateFile;
        inventory.users().forEach(u -> users.put(u.getString("userName"), u.getString("password")));
        if (stateFile != null && Files.exists(stateFile)) {
            restore(stateFile);
            return;
        }
        seed(inventory);
        persist();
    }

    private void seed(Inventory inventory) {
        for (JsonObject spec : inventory.serverHardware()) {
            String id = spec.getString("id");
            JsonObject sh = new JsonObject()
                    .put("type", "server-hardware-12")
                    .put("category", "server-hardware")
                    .put("uri", "/rest/server-hardware/" + id)
                    .put("uuid", id)
                    .put("name", spec.getString("name"))
                    .put("serverHardwareTypeUri", spec.getString("serverHardwareTypeUri"))
                    .put("serverGroupUri", spec.getString("serverGroupUri"))
                    .put("serverProfileUri", null)
                    .put("powerState", spec.getString("powerState", "Off"))
                    .put("state", "NoProfileApplied")
                    .put("stateReason", "NotApplicable")
                    .put("status", "OK")
                    .put("memoryMb", spec.getInteger("memoryMb", 131072))
                    .put("processorCount", spec.getInteger("processorCount", 2))
                    .put("processorCoreCount", spec.getInteger("processorCoreCount", 16))
                    .put("model", spec.getString("model", "ProLiant Simulated Gen10"));
            touch(sh);
            hardware.put(id, sh);
        }
        for (JsonObject spec : inventory.templates()) {
            String id = spec.getString("id");
            JsonObject spt = new JsonObject()
                    .put("type", "ServerProfileTemplateV8")
                    .put("category", "server-profile-templates")
                    .put("uri", "/rest/server-profile-templates/" + id)
                    .put("name", spec.getString("name"))
                    .put("description", spec.getString("description", ""))
                    .put("serverHardwareTypeUri", spec.getString("serverHardwareTypeUri"))
                    .put("enclosureGroupUri", spec.getString("enclosureGroupUri"))
                    .put("macType", "Virtual")
                    .put("bootMode", new JsonObject().put("manageMode", true).put("mode", "UEFIOptimized"))
                    .put("boot", new JsonObject().put("manageBoot", true).put("order", new JsonArray().add("HardDisk")))
                    .put("connectionSettings", new JsonObject().put("manageConnections", true).put("connections",
                            new JsonArray().add(new JsonObject().put("id", 1).put("name", "deploy").put("functionType", "Ethernet")
                                    .put("networkUri", "/rest/ethernet-networks/deploy").put("portId", "Auto"))));
            touch(spt);
            templates.put(id, spt);
        }
    }

    // --- sessions ---

    public synchronized String login(String userName, String password) {
        if (userName == null || password == null || !password.equals(users.get(userName))) {
            throw new OneViewError(401, "AUTHN_AUTH_FAIL", "Invalid user name or password.",
                    "Enter correct credentials and try again.");
        }
        String token = UUID.randomUUID().toString().replace("-", "");
        sessions.put(token, System.currentTimeMillis());
        return token;
    }

    public synchronized void logout(String token) {
        requireSession(token);
        sessions.remove(token);
    }

    /** The session must exist and have been used within the idle timeout; using it extends it. */
    public synchronized void requireSession(String token) {
        long now = System.currentTimeMillis();
        Long lastUsed = token == null ? null : sessions.get(token);
        if (lastUsed == null || now - lastUsed > sessionIdleTimeout.toMillis()) {
            if (token != null) {
                sessions.remove(token);
            }
            throw new OneViewError(401, "AUTHORIZATION", "Authorization error: the session is not valid or has expired.",
                    "Log in again with POST /rest/login-sessions.");
        }
        sessions.put(token, now);
    }

    public synchronized void expireSessions() {
        sessions.clear();
    }

    // --- server hardware ---

    public synchronized List<JsonObject> serverHardware() {
        return hardware.values().stream().map(JsonObject::copy)
                .sorted(Comparator.comparing(sh -> sh.getString("name"))).toList();
    }

    public synchronized JsonObject serverHardware(String id) {
        return hardwareNamed(id).copy();
    }

    private JsonObject hardwareNamed(String id) {
        JsonObject sh = hardware.get(id);
        if (sh == null) {
            throw OneViewError.notFound("/rest/server-hardware/" + id);
        }
        return sh;
    }

    private JsonObject hardwareAt(String uri) {
        String prefix = "/rest/server-hardware/";
        JsonObject sh = uri != null && uri.startsWith(prefix) ? hardware.get(uri.substring(prefix.length())) : null;
        if (sh == null) {
            throw OneViewError.badRequest("INVALID_SERVER_HARDWARE_URI", "The server hardware " + uri + " does not exist.");
        }
        return sh;
    }

    public synchronized JsonObject setPowerState(String id, JsonObject body) {
        JsonObject sh = hardwareNamed(id);
        String target = body.getString("powerState");
        String control = body.getString("powerControl", "MomentaryPress");
        if (!POWER_STATES.contains(target) || !POWER_CONTROLS.contains(control)) {
            throw OneViewError.badRequest("INVALID_POWER_REQUEST",
                    "powerState must be one of " + POWER_STATES + " and powerControl one of " + POWER_CONTROLS + ".");
        }
        String transient_ = control.equals("Reset") || control.equals("ColdBoot") ? "Resetting"
                : target.equals("On") ? "PoweringOn" : "PoweringOff";
        return persisted(newTask("Power " + target.toLowerCase(), sh, running -> {
            sh.put("powerState", transient_);
            touch(sh);
        }, () -> {
            sh.put("powerState", target);
            touch(sh);
        }, () -> {
            sh.put("powerState", "Unknown");
            touch(sh);
        }));
    }

    // --- templates ---

    public synchronized List<JsonObject> templates() {
        return templates.values().stream().map(JsonObject::copy).toList();
    }

    public synchronized JsonObject template(String id) {
        JsonObject spt = templates.get(id);
        if (spt == null) {
            throw OneViewError.notFound("/rest/server-profile-templates/" + id);
        }
        return spt.copy();
    }

    /** {@code GET {template}/new-profile}: a server-profile body ready to POST, derived from the template. */
    public synchronized JsonObject newProfile(String templateId) {
        JsonObject spt = template(templateId);
        return new JsonObject()
                .put("type", "ServerProfileV12")
                .put("name", null)
                .put("description", spt.getString("description"))
                .put("serverHardwareUri", null)
                .put("serverHardwareTypeUri", spt.getString("serverHardwareTypeUri"))
                .put("enclosureGroupUri", spt.getString("enclosureGroupUri"))
                .put("serverProfileTemplateUri", spt.getString("uri"))
                .put("templateCompliance", "Compliant")
                .put("macType", spt.getString("macType"))
                .put("bootMode", spt.getJsonObject("bootMode").copy())
                .put("boot", spt.getJsonObject("boot").copy())
                .put("connectionSettings", spt.getJsonObject("connectionSettings").copy());
    }

    // --- server profiles ---

    public synchronized List<JsonObject> profiles() {
        return profiles.values().stream().map(JsonObject::copy)
                .sorted(Comparator.comparing(p -> p.getString("name"))).toList();
    }

    public synchronized JsonObject profile(String id) {
        return profileNamed(id).copy();
    }

    private JsonObject profileNamed(String id) {
        JsonObject sp = profiles.get(id);
        if (sp == null) {
            throw OneViewError.notFound("/rest/server-profiles/" + id);
        }
        return sp;
    }

    /**
     * {@code POST /rest/server-profiles}: the hardware is reserved for the new profile at once, and the task
     * applies it. Hardware that already carries a profile is refused.
     */
    public synchronized JsonObject createProfile(JsonObject body) {
        String name = body.getString("name");
        if (name == null || name.isBlank()) {
            throw OneViewError.badRequest("INVALID_NAME", "A server profile needs a name.");
        }
        if (profiles.values().stream().anyMatch(p -> name.equals(p.getString("name")))) {
            throw OneViewError.badRequest("DUPLICATE_NAME", "A server profile named " + name + " already exists.");
        }
        JsonObject sh = hardwareAt(body.getString("serverHardwareUri"));
        if (sh.getString("serverProfileUri") != null) {
            throw new OneViewError(409, "PROFILE_ALREADY_EXISTS_IN_SERVER", "The server hardware " + sh.getString("name")
                    + " already has the server profile " + sh.getString("serverProfileUri") + " applied.",
                    "Remove the server profile from the server hardware, or choose other server hardware.");
        }
        JsonObject sp = profile(body, sh, "Creating");
        String uri = sp.getString("uri");
        sh.put("serverProfileUri", uri).put("state", "ApplyingProfile");
        touch(sh);
        return persisted(newTask("Create", sp, running -> { }, () -> {
            sp.put("state", "Normal").put("status", "OK");
            sh.put("state", "ProfileApplied");
            touch(sp);
            touch(sh);
        }, () -> {
            profiles.remove(idOf(uri));
            sh.put("serverProfileUri", null).put("state", "NoProfileApplied");
            touch(sh);
        }));
    }

    private JsonObject profile(JsonObject body, JsonObject sh, String state) {
        String id = UUID.randomUUID().toString();
        JsonObject sp = body.copy()
                .put("type", body.getString("type", "ServerProfileV12"))
                .put("category", "server-profiles")
                .put("uri", "/rest/server-profiles/" + id)
                .put("serverHardwareUri", sh.getString("uri"))
                .put("serverHardwareTypeUri", sh.getString("serverHardwareTypeUri"))
                .put("state", state)
                .put("status", "Unknown")
                .put("created", Instant.now().toString());
        touch(sp);
        profiles.put(id, sp);
        return sp;
    }

    /** {@code PUT /rest/server-profiles/{id}}: name, description and boot may change, as a task. */
    public synchronized JsonObject updateProfile(String id, JsonObject body, String ifMatch) {
        JsonObject sp = profileNamed(id);
        requireEtag(sp, ifMatch != null ? ifMatch : body.getString("eTag"));
        if (body.containsKey("serverHardwareUri") && !sp.getString("serverHardwareUri").equals(body.getString("serverHardwareUri"))) {
            throw OneViewError.badRequest("CANNOT_MOVE_PROFILE", "This simulator does not move a profile to other hardware.");
        }
        return persisted(newTask("Update", sp, running -> sp.put("state", "Updating"), () -> {
            for (String field : List.of("name", "description", "boot", "bootMode")) {
                if (body.containsKey(field)) {
                    sp.put(field, body.getValue(field));
                }
            }
            sp.put("state", "Normal");
            touch(sp);
        }, () -> sp.put("state", "Normal")));
    }

    /** {@code DELETE /rest/server-profiles/{id}}: the task removes it, and fails if the hardware is powered on. */
    public synchronized JsonObject deleteProfile(String id, String ifMatch) {
        JsonObject sp = profileNamed(id);
        requireEtag(sp, ifMatch);
        JsonObject sh = hardwareAt(sp.getString("serverHardwareUri"));
        return persisted(newTask("Delete", sp, running -> {
            sp.put("state", "Deleting");
            sh.put("state", "RemovingProfile");
            touch(sp);
        }, () -> {
            if (!"Off".equals(sh.getString("powerState"))) {
                throw new OneViewError(400, "SERVER_HARDWARE_POWERED_ON", "The server hardware " + sh.getString("name")
                        + " must be powered off to remove its server profile.", "Power off the server hardware and try again.");
            }
            removeProfile(sp, sh);
        }, () -> {
            sp.put("state", "Normal");
            sh.put("state", "ProfileApplied");
            touch(sp);
        }));
    }

    private void requireEtag(JsonObject resource, String ifMatch) {
        if (ifMatch != null && !ifMatch.equals("*") && !ifMatch.equals(resource.getString("eTag"))) {
            throw new OneViewError(412, "ETAG_MISMATCH", "The resource " + resource.getString("uri")
                    + " was changed by another request (eTag " + resource.getString("eTag") + ", not " + ifMatch + ").",
                    "Get the resource again and retry with its current eTag.");
        }
    }

    private void removeProfile(JsonObject sp, JsonObject sh) {
        profiles.remove(idOf(sp.getString("uri")));
        sh.put("serverProfileUri", null).put("state", "NoProfileApplied");
        touch(sh);
    }

    // --- what a OneView user does (admin API) ---

    /** A OneView user applies a profile of their own to the hardware, at once; 409 if it carries one. */
    public synchronized JsonObject applyUserProfile(String hardwareId, String name) {
        JsonObject sh = hardwareNamed(hardwareId);
        if (sh.getString("serverProfileUri") != null) {
            throw new OneViewError(409, "PROFILE_ALREADY_EXISTS_IN_SERVER", "The server hardware " + sh.getString("name")
                    + " already has the server profile " + sh.getString("serverProfileUri") + " applied.", null);
        }
        String profileName = name == null || name.isBlank() ? "OneView user profile [" + sh.getString("name") + "]" : name;
        JsonObject sp = profile(new JsonObject().put("name", profileName).put("description", "applied by a OneView user"),
                sh, "Normal").put("status", "OK");
        sh.put("serverProfileUri", sp.getString("uri")).put("state", "ProfileApplied");
        touch(sh);
        persist();
        return sp.copy();
    }

    /** Removes whatever profile the hardware carries, at once; false if it had none. */
    public synchronized boolean removeAnyProfile(String hardwareId) {
        JsonObject sh = hardwareNamed(hardwareId);
        String uri = sh.getString("serverProfileUri");
        if (uri == null) {
            return false;
        }
        JsonObject sp = profiles.get(idOf(uri));
        if (sp != null) {
            removeProfile(sp, sh);
        } else {
            sh.put("serverProfileUri", null).put("state", "NoProfileApplied");
            touch(sh);
        }
        persist();
        return true;
    }

    // --- tasks ---

    public synchronized JsonObject task(String id) {
        Task task = tasks.get(id);
        if (task == null) {
            throw OneViewError.notFound("/rest/tasks/" + id);
        }
        return task.json.copy();
    }

    private JsonObject newTask(String name, JsonObject resource, Consumer<JsonObject> onRunning, Runnable onCompleted,
            Runnable onFailed) {
        String id = UUID.randomUUID().toString();
        String now = Instant.now().toString();
        JsonObject json = new JsonObject()
                .put("type", "TaskResourceV2")
                .put("category", "tasks")
                .put("uri", "/rest/tasks/" + id)
                .put("name", name)
                .put("owner", "administrator")
                .put("taskState", "New")
                .put("taskStatus", name + " queued.")
                .put("percentComplete", 0)
                .put("computedPercentComplete", 0)
                .put("taskErrors", new JsonArray())
                .put("associatedResource", new JsonObject()
                        .put("resourceUri", resource.getString("uri"))
                        .put("resourceName", resource.getString("name"))
                        .put("resourceCategory", resource.getString("category")))
                .put("created", now)
                .put("modified", now);
        touch(json);
        long phase = faults.takeSlowTask(name).map(Faults.Fault::millis).orElse(taskPhase.toMillis());
        tasks.put(id, new Task(json, onRunning, onCompleted, onFailed, phase, System.currentTimeMillis() + phase));
        return json.copy();
    }

    /** Moves every task whose phase is over one phase on. */
    public synchronized void tick(long now) {
        boolean moved = false;
        for (Task task : new ArrayList<>(tasks.values())) {
            String state = task.json.getString("taskState");
            if (now < task.phaseEndsAt || !(state.equals("New") || state.equals("Running"))) {
                continue;
            }
            task.phaseEndsAt = now + task.phaseMillis;
            moved = true;
            if (state.equals("New")) {
                task.onRunning.accept(task.json);
                progress(task, "Running", task.json.getString("name") + " in progress.", 50);
                continue;
            }
            try {
                Faults.Fault fault = faults.takeTaskFailure(task.json.getString("name")).orElse(null);
                if (fault != null) {
                    throw new OneViewError(500, "TASK_FAILED", fault.message(), "Correct the problem and try again.");
                }
                task.onCompleted.run();
                progress(task, "Completed", task.json.getString("name") + " completed.", 100);
            } catch (OneViewError e) {
                task.onFailed.run();
                task.json.put("taskErrors", new JsonArray().add(OneViewError.body(e.errorCode(), e.getMessage(), null)));
                progress(task, "Error", e.getMessage(), 100);
            }
        }
        if (moved) {
            persist();
        }
    }

    private void progress(Task task, String state, String status, int percent) {
        task.json.put("taskState", state).put("taskStatus", status).put("percentComplete", percent)
                .put("computedPercentComplete", percent).put("modified", Instant.now().toString());
        touch(task.json);
    }

    private void touch(JsonObject resource) {
        resource.put("eTag", String.valueOf(++etags)).put("modified", Instant.now().toString());
    }

    // --- state kept across restarts ---

    private JsonObject persisted(JsonObject task) {
        persist();
        return task;
    }

    /** Writes the state to a temporary file beside the state file, then moves it over the old one atomically. */
    private void persist() {
        if (stateFile == null) {
            return;
        }
        JsonObject state = new JsonObject()
                .put("etags", etags)
                .put("serverHardware", new JsonArray(new ArrayList<>(hardware.values())))
                .put("templates", new JsonArray(new ArrayList<>(templates.values())))
                .put("profiles", new JsonArray(new ArrayList<>(profiles.values())))
                .put("tasks", new JsonArray(tasks.values().stream().map(t -> (Object) t.json).toList()));
        try {
            Path temporary = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
            Files.writeString(temporary, state.encode(), StandardCharsets.UTF_8);
            Files.move(temporary, stateFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the OneView simulator's state to " + stateFile, e);
        }
    }

    /** Reads the state back; what unfinished tasks had begun is undone, and they end Terminated. */
    private void restore(Path file) {
        JsonObject state;
        try {
            state = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the OneView simulator's state from " + file, e);
        }
        etags = state.getLong("etags", 0L);
        state.getJsonArray("serverHardware").forEach(o -> put(hardware, (JsonObject) o));
        state.getJsonArray("templates").forEach(o -> put(templates, (JsonObject) o));
        state.getJsonArray("profiles").forEach(o -> put(profiles, (JsonObject) o));
        for (Object o : state.getJsonArray("tasks")) {
            JsonObject json = (JsonObject) o;
            String taskState = json.getString("taskState");
            if (taskState.equals("New") || taskState.equals("Running")) {
                String message = "The appliance restarted while the task " + json.getString("name") + " ran.";
                json.put("taskErrors", new JsonArray().add(OneViewError.body("TASK_TERMINATED", message, null)))
                        .put("taskState", "Terminated").put("taskStatus", message).put("percentComplete", 100)
                        .put("computedPercentComplete", 100);
                touch(json);
            }
            tasks.put(idOf(json.getString("uri")), new Task(json, x -> { }, () -> { }, () -> { }, taskPhase.toMillis(), Long.MAX_VALUE));
        }
        for (JsonObject sp : new ArrayList<>(profiles.values())) {
            JsonObject sh = hardware.get(idOf(sp.getString("serverHardwareUri")));
            if ("Creating".equals(sp.getString("state"))) {
                profiles.remove(idOf(sp.getString("uri")));
                if (sh != null) {
                    sh.put("serverProfileUri", null).put("state", "NoProfileApplied");
                    touch(sh);
                }
            } else if (!"Normal".equals(sp.getString("state"))) {
                sp.put("state", "Normal");
                touch(sp);
                if (sh != null) {
                    sh.put("state", "ProfileApplied");
                    touch(sh);
                }
            }
        }
        for (JsonObject sh : hardware.values()) {
            String power = sh.getString("powerState");
            String settled = switch (power) {
                case "PoweringOn" -> "Off";
                case "PoweringOff", "Resetting" -> "On";
                default -> power;
            };
            if (!settled.equals(power)) {
                sh.put("powerState", settled);
                touch(sh);
            }
        }
        persist();
    }

    private static void put(Map<String, JsonObject> map, JsonObject resource) {
        map.put(idOf(resource.getString("uri")), resource);
    }

    private static String idOf(String uri) {
        return uri.substring(uri.lastIndexOf('/') + 1);
    }
}
