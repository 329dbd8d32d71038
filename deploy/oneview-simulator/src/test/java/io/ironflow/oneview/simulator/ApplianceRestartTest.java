package io.ironflow.oneview.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The appliance keeps its state across its own restarts, as a real OneView does: profiles, power and finished
 * tasks come back from the state file; sessions do not (clients log in again); a task cut short by the restart
 * ends Terminated and what it had begun is undone.
 */
class ApplianceRestartTest {

    private static final String SH1 = "30303437-0000-4000-8000-000000000001";
    private static final String SH2 = "30303437-0000-4000-8000-000000000002";
    private static final Duration PHASE = Duration.ofMillis(10);

    @TempDir
    Path dir;

    private Appliance start(Path state) {
        return new Appliance(Inventory.load(null, 0), new Faults(), PHASE, Duration.ofHours(24), state);
    }

    /** Ticks far enough ahead for every pending task to end. */
    private static void finishTasks(Appliance appliance) {
        long now = System.currentTimeMillis();
        appliance.tick(now + 1_000);
        appliance.tick(now + 2_000);
    }

    private static JsonObject newProfile(Appliance appliance, String hardware, String name) {
        String template = appliance.templates().get(0).getString("uri");
        return appliance.newProfile(template.substring(template.lastIndexOf('/') + 1))
                .put("name", name).put("serverHardwareUri", "/rest/server-hardware/" + hardware);
    }

    @Test
    void profilesPowerAndTasksSurviveARestartButSessionsAndUnfinishedTasksDoNot() throws Exception {
        Path state = dir.resolve("appliance-state.json");
        Appliance first = start(state);
        String session = first.login("administrator", "ironflow");
        JsonObject created = first.createProfile(newProfile(first, SH1, "Ironflow Deploy [node-1]"));
        JsonObject power = first.setPowerState(SH1, new JsonObject().put("powerState", "On").put("powerControl", "MomentaryPress"));
        finishTasks(first);
        String profileUri = first.serverHardware(SH1).getString("serverProfileUri");
        String profileEtag = first.profile(profileUri.substring(profileUri.lastIndexOf('/') + 1)).getString("eTag");
        // A second profile is still being applied when the appliance stops.
        JsonObject unfinished = first.createProfile(newProfile(first, SH2, "Ironflow Cleaning [node-2]"));
        assertEquals("ApplyingProfile", first.serverHardware(SH2).getString("state"));
        assertTrue(Files.exists(state));
        assertFalse(Files.exists(dir.resolve("appliance-state.json.tmp")), "the temporary file was moved over the state");

        Appliance second = start(state);

        JsonObject sh1 = second.serverHardware(SH1);
        assertEquals(profileUri, sh1.getString("serverProfileUri"));
        assertEquals("ProfileApplied", sh1.getString("state"));
        assertEquals("On", sh1.getString("powerState"));
        JsonObject profile = second.profile(profileUri.substring(profileUri.lastIndexOf('/') + 1));
        assertEquals("Ironflow Deploy [node-1]", profile.getString("name"));
        assertEquals(profileEtag, profile.getString("eTag"), "an unchanged profile keeps its eTag (If-Match still holds)");
        String createTask = created.getString("uri");
        assertEquals("Completed", second.task(createTask.substring(createTask.lastIndexOf('/') + 1)).getString("taskState"));
        String powerTask = power.getString("uri");
        assertEquals("Completed", second.task(powerTask.substring(powerTask.lastIndexOf('/') + 1)).getString("taskState"));

        String cutShort = unfinished.getString("uri");
        JsonObject terminated = second.task(cutShort.substring(cutShort.lastIndexOf('/') + 1));
        assertEquals("Terminated", terminated.getString("taskState"));
        assertEquals("TASK_TERMINATED", terminated.getJsonArray("taskErrors").getJsonObject(0).getString("errorCode"));
        assertNull(second.serverHardware(SH2).getString("serverProfileUri"), "the profile being created is gone");
        assertEquals("NoProfileApplied", second.serverHardware(SH2).getString("state"));
        assertEquals(1, second.profiles().size());

        OneViewError expired = assertThrows(OneViewError.class, () -> second.requireSession(session));
        assertEquals(401, expired.status());

        // The restarted appliance goes on where it stopped, and a third start sees its later changes too.
        second.setPowerState(SH1, new JsonObject().put("powerState", "Off").put("powerControl", "PressAndHold"));
        finishTasks(second);
        second.deleteProfile(profile.getString("uri").substring(profile.getString("uri").lastIndexOf('/') + 1), "*");
        finishTasks(second);
        Appliance third = start(state);
        assertNull(third.serverHardware(SH1).getString("serverProfileUri"));
        assertEquals("Off", third.serverHardware(SH1).getString("powerState"));
        assertTrue(third.profiles().isEmpty());
    }

    @Test
    void withoutAStateFileTheApplianceStartsFromItsInventoryEachTime() {
        Appliance first = new Appliance(Inventory.load(null, 0), new Faults(), PHASE, Duration.ofHours(24));
        first.applyUserProfile(SH1, "held");
        Appliance second = new Appliance(Inventory.load(null, 0), new Faults(), PHASE, Duration.ofHours(24));
        assertNull(second.serverHardware(SH1).getString("serverProfileUri"));
    }
}
