package io.ironflow.deploy.stack;

import static org.awaitility.Awaitility.await;
import static io.ironflow.deploy.stack.Matching.matching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.stack.OpenstackCli.Run;
import io.ironflow.deploy.testing.TestDirectories;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real {@code openstack baremetal} CLI (Debian's python3-openstackclient 6.0.0 and python3-ironicclient 5.0.1,
 * which knows API versions up to 1.78) against the local stack, standalone as an operator runs it:
 * {@code OS_AUTH_TYPE=none OS_ENDPOINT=<api> OS_BAREMETAL_API_VERSION=latest}. Every assertion is what the same
 * command does against OpenStack Ironic, but for two conflicts asked of the API directly (the CLI retries each 409
 * for 10 s). One stack for the class; the nodes are reused from test to test in order:
 * <ul>
 * <li>{@code n1}: created with every field, shown, listed, set and unset, retired, finally deleted;</li>
 * <li>{@code n2}: the deploy life cycle with {@code --wait} (manage, provide, deploy, rebuild, rescue, unrescue,
 * undeploy);</li>
 * <li>{@code n3}: manual cleaning (steps from a file and from stdin), inspect, power, maintenance, validate;</li>
 * <li>{@code n4}: a slow clean step parks it in {@code clean wait}, where it is aborted.</li>
 * </ul>
 * It runs on the {@link SharedStack}, whose other nodes its lists leave out (only the paging test sees them all).
 * CI installs the client ({@code .ci/run}); without {@code /usr/bin/openstack} every test fails, none is skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(SharedStack.class)
@Order(2)
class OpenstackCliTest {

    private static final Duration COMMAND = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** This class's nodes: what {@link #list} keeps of the shared stack's. */
    private static final Set<String> MINE = Set.of("n1", "n2", "n3", "n4");

    /** The client's config, cache and files (the stack's data directory is the shared stack's). */
    private final Path dataDir = Path.of("target", "cli-test-" + UUID.randomUUID()).toAbsolutePath();
    private RunningStack stack;
    private OpenstackCli client;
    private String n1;

    @BeforeAll
    void up(RunningStack shared) throws Exception {
        assertTrue(Files.isExecutable(OpenstackCli.OPENSTACK), OpenstackCli.OPENSTACK + " is missing: install Debian's "
                + "python3-openstackclient and python3-ironicclient (apt-get install -y python3-openstackclient "
                + "python3-ironicclient; .ci/run does)");
        Files.createDirectories(dataDir);
        stack = shared;
        client = new OpenstackCli(stack.api(), dataDir);
    }

    @AfterAll
    void down() {
        TestDirectories.deleteRecursively(dataDir);
    }

    // ---------------------------------------------------------------- create, show

    @Test
    @Order(1)
    void createSendsEveryFieldAndShowsTheEnrolledNode() throws Exception {
        JsonNode node = cli("baremetal", "node", "create", "--driver", "fake-hardware", "--name", "n1",
                "--driver-info", "ipmi_address=10.0.0.1", "--driver-info", "ipmi_password=secret",
                "--property", "cpus=4", "--property", "memory_mb=8192", "--extra", "team=a",
                "--resource-class", "baremetal.small", "-f", "json").ok().json();
        n1 = node.get("uuid").asText();
        assertEquals("n1", node.get("name").asText());
        assertEquals("fake-hardware", node.get("driver").asText());
        assertEquals("enroll", node.get("provision_state").asText());
        assertTrue(node.get("target_provision_state").isNull(), node.toString());
        assertEquals("10.0.0.1", node.get("driver_info").get("ipmi_address").asText());
        // Ironic never returns a password: driver_info secrets are masked.
        assertEquals("******", node.get("driver_info").get("ipmi_password").asText());
        assertEquals(4, node.get("properties").get("cpus").asInt(), "the CLI sends cpus=4 as the JSON number 4");
        assertEquals(8192, node.get("properties").get("memory_mb").asInt());
        assertEquals("a", node.get("extra").get("team").asText());
        assertEquals("baremetal.small", node.get("resource_class").asText());
        assertFalse(node.get("retired").asBoolean());
        assertFalse(node.get("maintenance").asBoolean());
    }

    @Test
    @Order(2)
    void ownerLesseeAndDescriptionAreSetAfterCreateBecauseThisClientRefusesThemOnCreate() throws Exception {
        // python3-ironicclient 5.0.1 leaves owner, lessee and description out of NodeManager._creation_attributes:
        // `node create --owner/--lessee/--description` fails in the client before any request is sent.
        Run refused = cli("baremetal", "node", "create", "--driver", "fake-hardware", "--name", "never",
                "--owner", "o1", "--lessee", "l1", "--description", "first node").failed();
        assertTrue(refused.message().contains("\"owner\",\"lessee\",\"description\" are invalid; they are not needed "
                + "to create nodes"), refused::toString);
        cli("baremetal", "node", "set", "n1", "--owner", "o1", "--lessee", "l1", "--description", "first node").ok();
        JsonNode node = show("n1");
        assertEquals("o1", node.get("owner").asText());
        assertEquals("l1", node.get("lessee").asText());
        assertEquals("first node", node.get("description").asText());
    }

    @Test
    @Order(3)
    void showByNameAndByUuidGiveTheSameNode() throws Exception {
        JsonNode byName = show("n1");
        JsonNode byUuid = show(n1);
        assertEquals(byName, byUuid);
        assertEquals(n1, byName.get("uuid").asText());
        Run missing = cli("baremetal", "node", "show", "no-such-node").failed();
        assertTrue(missing.message().contains("Node no-such-node could not be found. (HTTP 404)"), missing::toString);
    }

    @Test
    @Order(4)
    void showWithFieldsReturnsOnlyThoseFields() throws Exception {
        JsonNode node = cli("baremetal", "node", "show", "n1", "--fields", "uuid", "name", "provision_state", "-f", "json")
                .ok().json();
        assertEquals(Set.of("uuid", "name", "provision_state"), fieldNames(node), node.toString());
        assertEquals(n1, node.get("uuid").asText());
        assertEquals("enroll", node.get("provision_state").asText());
    }

    // ---------------------------------------------------------------- list

    @Test
    @Order(10)
    void plainListHasTheDefaultColumnsAndLongListTheDetails() throws Exception {
        cli("baremetal", "node", "create", "--driver", "fake-hardware", "--name", "n2").ok();
        cli("baremetal", "node", "create", "--driver", "fake-hardware", "--name", "n3").ok();
        cli("baremetal", "node", "create", "--driver", "fake-hardware", "--name", "n4",
                "--driver-info", "fake_step_seconds={\"deploy.erase_devices\": 60}").ok();

        JsonNode plain = list();
        assertEquals(Set.of("n1", "n2", "n3", "n4"), column(plain, "Name"));
        for (JsonNode row : plain) {
            assertEquals(Set.of("UUID", "Name", "Instance UUID", "Power State", "Provisioning State", "Maintenance"),
                    fieldNames(row), row.toString());
        }

        JsonNode detail = list("--long");
        assertEquals(Set.of("n1", "n2", "n3", "n4"), column(detail, "Name"));
        JsonNode row1 = row(detail, "n1");
        assertEquals("fake-hardware", row1.get("Driver").asText());
        assertEquals("baremetal.small", row1.get("Resource Class").asText());
        assertEquals("o1", row1.get("Owner").asText());
        assertEquals("******", row1.get("Driver Info").get("ipmi_password").asText());
        assertEquals(false, row1.get("Retired").asBoolean());
    }

    @Test
    @Order(11)
    void listWithFieldsReturnsThoseColumnsWithTheirValues() throws Exception {
        JsonNode rows = list("--fields", "uuid", "name", "retired");
        assertEquals(4, rows.size(), rows.toString());
        for (JsonNode row : rows) {
            assertEquals(Set.of("UUID", "Name", "Retired"), fieldNames(row), row.toString());
            assertTrue(row.get("Retired").isBoolean(), "the server must return the retired field asked for: " + row);
            assertFalse(row.get("Retired").asBoolean(), row.toString());
        }
    }

    @Test
    @Order(12)
    void limitAndMarkerPageThroughTheList() throws Exception {
        JsonNode every = listAll();
        List<String> all = names(every);
        List<String> firstTwo = names(listAll("--limit", "2"));
        assertEquals(all.subList(0, 2), firstTwo);
        String marker = every.get(1).get("UUID").asText();
        assertEquals(all.subList(2, 4), names(listAll("--limit", "2", "--marker", marker)));
    }

    @Test
    @Order(13)
    void sortOrdersByTheGivenFieldAndDirection() throws Exception {
        assertEquals(List.of("n4", "n3", "n2", "n1"), names(list("--sort", "name:desc")));
        assertEquals(List.of("n1", "n2", "n3", "n4"), names(list("--sort", "name:asc")));
    }

    // ---------------------------------------------------------------- set, unset, retire

    @Test
    @Order(20)
    void setAndUnsetChangeNameExtraPropertiesAndDriverInfo() throws Exception {
        cli("baremetal", "node", "set", "n1", "--name", "n1-renamed", "--extra", "k=v", "--property", "k=v",
                "--driver-info", "k=v").ok();
        JsonNode node = show(n1);
        assertEquals("n1-renamed", node.get("name").asText());
        assertEquals("v", node.get("extra").get("k").asText());
        assertEquals("a", node.get("extra").get("team").asText(), "set adds keys, it keeps the others");
        assertEquals("v", node.get("properties").get("k").asText());
        assertEquals("v", node.get("driver_info").get("k").asText());
        assertEquals("10.0.0.1", node.get("driver_info").get("ipmi_address").asText());

        cli("baremetal", "node", "unset", "n1-renamed", "--name", "--extra", "k", "--property", "k", "--driver-info", "k",
                "--description").ok();
        node = show(n1);
        assertTrue(node.get("name").isNull(), node.toString());
        assertFalse(node.get("extra").has("k"), node.toString());
        assertFalse(node.get("properties").has("k"), node.toString());
        assertFalse(node.get("driver_info").has("k"), node.toString());
        assertTrue(node.get("description").isNull(), node.toString());
        assertEquals(4, node.get("properties").get("cpus").asInt());

        cli("baremetal", "node", "set", n1, "--name", "n1").ok();
        assertEquals("n1", show(n1).get("name").asText());
    }

    @Test
    @Order(21)
    void setRetiredWithAReason() throws Exception {
        // The CLI sends {"op": "add", "path": "/retired", "value": "True"}: a string, which Ironic accepts as a boolean.
        cli("baremetal", "node", "set", "n1", "--retired", "--retired-reason", "why").ok();
        JsonNode node = show("n1");
        assertTrue(node.get("retired").asBoolean(), node.toString());
        assertEquals("why", node.get("retired_reason").asText());
    }

    @Test
    @Order(22)
    void listRetiredAndNotRetired() throws Exception {
        assertEquals(Set.of("n1"), column(list("--retired"), "Name"));
        assertEquals(Set.of("n2", "n3", "n4"), column(list("--no-retired"), "Name"));
    }

    @Test
    @Order(23)
    void unsetRetiredReasonThenRetired() throws Exception {
        cli("baremetal", "node", "unset", "n1", "--retired-reason").ok();
        JsonNode node = show("n1");
        assertTrue(node.get("retired").asBoolean(), node.toString());
        assertTrue(node.get("retired_reason").isNull(), node.toString());
        cli("baremetal", "node", "set", "n1", "--retired-reason", "again").ok();
        cli("baremetal", "node", "unset", "n1", "--retired").ok();
        node = show("n1");
        assertFalse(node.get("retired").asBoolean(), node.toString());
        assertTrue(node.get("retired_reason").isNull(), "unsetting retired clears its reason: " + node);
    }

    @Test
    @Order(24)
    void unsetOwnerAndLessee() throws Exception {
        cli("baremetal", "node", "unset", "n1", "--owner", "--lessee").ok();
        JsonNode node = show("n1");
        assertTrue(node.get("owner").isNull(), node.toString());
        assertTrue(node.get("lessee").isNull(), node.toString());
    }

    @Test
    @Order(25)
    void setTheDriverToOneAConductorHasAndBack() throws Exception {
        cli("baremetal", "node", "set", "n1", "--driver", "oneview", "--reset-interfaces").ok();
        JsonNode node = show("n1");
        assertEquals("oneview", node.get("driver").asText());
        assertEquals("no-bios", node.get("bios_interface").asText(), "the new driver's interfaces: " + node);
        Run unknown = cli("baremetal", "node", "set", "n1", "--driver", "ipmi").failed();
        assertTrue(unknown.message().contains("No conductor service registered which supports driver ipmi"), unknown::toString);
        cli("baremetal", "node", "set", "n1", "--driver", "fake-hardware").ok();
        assertEquals("fake-hardware", show("n1").get("driver").asText());
    }

    // ---------------------------------------------------------------- the deploy life cycle, with --wait

    @Test
    @Order(30)
    void manageWaitsForManageable() throws Exception {
        Run run = cli("baremetal", "node", "manage", "n2", "--wait", "60").ok();
        assertTrue(run.stdout().contains("Waiting for provision state manageable on node n2"), run::toString);
        assertStable("n2", "manageable");
    }

    @Test
    @Order(31)
    void listByProvisionState() throws Exception {
        assertEquals(Set.of("n2"), column(list("--provision-state", "manageable"), "Name"));
        assertEquals(Set.of("n1", "n3", "n4"), column(list("--provision-state", "enroll"), "Name"));
    }

    @Test
    @Order(32)
    void provideWaitsForAvailable() throws Exception {
        cli("baremetal", "node", "provide", "n2", "--wait", "60").ok();
        assertStable("n2", "available");
    }

    @Test
    @Order(33)
    void deployWaitsForActive() throws Exception {
        cli("baremetal", "node", "deploy", "n2", "--wait", "60").ok();
        JsonNode node = assertStable("n2", "active");
        assertEquals("power on", node.get("power_state").asText());
    }

    @Test
    @Order(34)
    void rebuildWaitsForActive() throws Exception {
        cli("baremetal", "node", "rebuild", "n2", "--wait", "60").ok();
        assertStable("n2", "active");
    }

    @Test
    @Order(35)
    void rescueWithAPasswordWaitsForRescue() throws Exception {
        cli("baremetal", "node", "rescue", "n2", "--rescue-password", "s3cret", "--wait", "60").ok();
        JsonNode node = assertStable("n2", "rescue");
        assertFalse(node.toString().contains("s3cret"), "the rescue password is never shown: " + node);
    }

    @Test
    @Order(36)
    void unrescueWaitsForActive() throws Exception {
        cli("baremetal", "node", "unrescue", "n2", "--wait", "60").ok();
        assertStable("n2", "active");
    }

    @Test
    @Order(37)
    void undeployWaitsForAvailable() throws Exception {
        cli("baremetal", "node", "undeploy", "n2", "--wait", "60").ok();
        JsonNode node = assertStable("n2", "available");
        assertEquals("power off", node.get("power_state").asText());
    }

    @Test
    @Order(38)
    void aVerbTheStateRefusesExitsNonZeroWithIronicsMessage() throws Exception {
        String uuid = show("n2").get("uuid").asText();
        Run run = cli("baremetal", "node", "unrescue", "n2", "--wait", "30").failed();
        assertTrue(run.message().contains("The requested action \"unrescue\" can not be performed on node \"" + uuid
                + "\" while it is in state \"available\". (HTTP 400)"), run::toString);
        assertStable("n2", "available");
    }

    @Test
    @Order(39)
    void deployAndUndeployAsTargetNamesAtTheServersMaximumVersion() throws Exception {
        // The Debian client sends active/deleted; a client at the server's maximum (1.82) may send Ironic 1.73's names.
        String uuid = show("n2").get("uuid").asText();
        HttpResponse<String> deploy = putAtLatest("/v1/nodes/n2/states/provision", "{\"target\": \"deploy\"}");
        assertEquals(202, deploy.statusCode(), deploy.body());
        assertEquals("1.82", deploy.headers().firstValue("X-OpenStack-Ironic-API-Version").orElse(null));
        awaitState("n2", "active");
        HttpResponse<String> undeploy = putAtLatest("/v1/nodes/" + uuid + "/states/provision", "{\"target\": \"undeploy\"}");
        assertEquals(202, undeploy.statusCode(), undeploy.body());
        awaitState("n2", "available");
    }

    @Test
    @Order(40)
    void historyListsEveryTransitionWithItsRequesterAndGetShowsOne() throws Exception {
        // manage: verifying, manageable; provide: cleaning, available; deploy ... undeploy ...: many entries by now.
        JsonNode rows = awaitHistory("n2", 10);
        for (JsonNode row : rows) {
            assertEquals(Set.of("UUID", "Created At", "Severity", "Description of the event"), fieldNames(row), row.toString());
        }
        assertTrue(rows.get(0).get("Description of the event").asText().startsWith("Node created in enroll"), rows.toString());
        JsonNode detailed = cli("baremetal", "node", "history", "list", "n2", "--long", "-f", "json").ok().json();
        assertEquals(rows.size(), detailed.size(), detailed.toString());
        assertEquals("anonymous", detailed.get(1).get("User").asText(), detailed.toString());
        assertFalse(detailed.get(1).get("Conductor").asText().isBlank(), detailed.toString());

        String event = rows.get(1).get("UUID").asText();
        JsonNode one = cli("baremetal", "node", "history", "get", "n2", event, "-f", "json").ok().json();
        assertEquals(event, one.get("uuid").asText(), one.toString());
        assertEquals("INFO", one.get("severity").asText(), one.toString());
        assertTrue(one.get("event").asText().contains("intent "), one.toString());
    }

    // ---------------------------------------------------------------- cleaning, inspection, power, maintenance

    @Test
    @Order(41)
    void cleanWithStepsFromAFileWaitsForManageable() throws Exception {
        cli("baremetal", "node", "manage", "n3", "--wait", "60").ok();
        Path steps = Files.writeString(dataDir.resolve("clean-steps.json"), """
                [{"interface": "deploy", "step": "erase_devices_metadata"},
                 {"interface": "bios", "step": "apply_configuration",
                  "args": {"settings": [{"name": "LogicalProc", "value": "Enabled"}]}}]
                """);
        Run run = cli("baremetal", "node", "clean", "n3", "--clean-steps", steps.toString(), "--wait", "60").ok();
        assertTrue(run.stdout().contains("Waiting for provision state manageable on node n3"), run::toString);
        JsonNode node = assertStable("n3", "manageable");
        assertTrue(node.get("last_error").isNull(), node.toString());
    }

    @Test
    @Order(42)
    void cleanWithStepsFromStdinWaitsForManageable() throws Exception {
        cliWithInput("[{\"interface\": \"raid\", \"step\": \"delete_configuration\"}]",
                "baremetal", "node", "clean", "n3", "--clean-steps", "-", "--wait", "60").ok();
        JsonNode node = assertStable("n3", "manageable");
        assertTrue(node.get("last_error").isNull(), node.toString());
    }

    @Test
    @Order(43)
    void biosSettingsAreWhatTheCleanStepApplied() throws Exception {
        JsonNode rows = cli("baremetal", "node", "bios", "setting", "list", "n3", "-f", "json").ok().json();
        assertEquals(1, rows.size(), rows.toString());
        assertEquals("LogicalProc", rows.get(0).get("BIOS setting name").asText(), rows.toString());
        assertEquals("Enabled", rows.get(0).get("BIOS setting value").asText(), rows.toString());
        JsonNode one = cli("baremetal", "node", "bios", "setting", "show", "n3", "LogicalProc", "-f", "json").ok().json();
        assertEquals("Enabled", one.get("value").asText(), one.toString());
        Run missing = cli("baremetal", "node", "bios", "setting", "show", "n3", "Nope").failed();
        assertTrue(missing.message().contains("doesn't have a BIOS setting 'Nope' (HTTP 404)"), missing::toString);
    }

    @Test
    @Order(44)
    void traitsAreAddedListedAndRemoved() throws Exception {
        cli("baremetal", "node", "add", "trait", "n3", "CUSTOM_GPU", "HW_CPU_X86_AVX2").ok();
        JsonNode traits = cli("baremetal", "node", "trait", "list", "n3", "-f", "json").ok().json();
        assertEquals(Set.of("CUSTOM_GPU", "HW_CPU_X86_AVX2"), column(traits, "Traits"), traits.toString());
        assertEquals(List.of("CUSTOM_GPU", "HW_CPU_X86_AVX2"), List.of(show("n3").get("traits").get(0).asText(),
                show("n3").get("traits").get(1).asText()));
        Run invalid = cli("baremetal", "node", "add", "trait", "n3", "gpu").failed();
        assertTrue(invalid.message().contains("Invalid trait. A valid trait must be no longer than 255 characters."),
                invalid::toString);
        cli("baremetal", "node", "remove", "trait", "n3", "CUSTOM_GPU").ok();
        traits = cli("baremetal", "node", "trait", "list", "n3", "-f", "json").ok().json();
        assertEquals(Set.of("HW_CPU_X86_AVX2"), column(traits, "Traits"), traits.toString());
    }

    @Test
    @Order(45)
    void inspectWaitsForManageable() throws Exception {
        Run never = cli("baremetal", "node", "show", "n3", "-f", "json").ok();
        HttpResponse<String> before = getAtLatest("/v1/nodes/n3/inventory");
        assertEquals(404, before.statusCode(), before.body());
        assertTrue(before.body().contains("Node inventory record for node " + never.json().get("uuid").asText()
                + " could not be found."), before.body());
        cli("baremetal", "node", "inspect", "n3", "--wait", "60").ok();
        assertStable("n3", "manageable");

        // What inspection found. Debian's client (python-ironicclient 5.0.1, API 1.78) has no `node inventory save`:
        // read it at 1.81 as that command does.
        HttpResponse<String> response = getAtLatest("/v1/nodes/n3/inventory");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        JsonNode inventory = body.get("inventory");
        for (String part : List.of("cpu", "memory", "disks", "interfaces", "system_vendor", "boot", "bmc_address")) {
            assertTrue(inventory.has(part), part + " missing: " + inventory);
        }
        assertTrue(inventory.get("cpu").get("count").asInt() >= 1, inventory.toString());
        assertTrue(body.get("plugin_data").has("macs"), body.toString());
        assertEquals(response.body(), getAtLatest("/v1/nodes/n3/inventory").body(), "the same machine every read");
    }

    @Test
    @Order(46)
    void powerOnOffAndReboot() throws Exception {
        cli("baremetal", "node", "power", "on", "n3").ok();
        assertEquals("power on", show("n3").get("power_state").asText());
        cli("baremetal", "node", "power", "off", "n3", "--power-timeout", "30").ok();
        assertEquals("power off", show("n3").get("power_state").asText());
        cli("baremetal", "node", "reboot", "n3").ok();
        JsonNode node = show("n3");
        assertEquals("power on", node.get("power_state").asText());
        assertTrue(node.get("target_power_state").isNull(), node.toString());
    }

    @Test
    @Order(47)
    void maintenanceSetWithAReason() throws Exception {
        cli("baremetal", "node", "maintenance", "set", "n3", "--reason", "disk swap").ok();
        JsonNode node = show("n3");
        assertTrue(node.get("maintenance").asBoolean(), node.toString());
        assertEquals("disk swap", node.get("maintenance_reason").asText());
    }

    @Test
    @Order(48)
    void listMaintenanceListsOnlyNodesInMaintenance() throws Exception {
        assertEquals(Set.of("n3"), column(list("--maintenance"), "Name"));
    }

    @Test
    @Order(49)
    void maintenanceUnset() throws Exception {
        cli("baremetal", "node", "maintenance", "unset", "n3").ok();
        JsonNode node = show("n3");
        assertFalse(node.get("maintenance").asBoolean(), node.toString());
        assertTrue(node.get("maintenance_reason").isNull(), node.toString());
    }

    @Test
    @Order(50)
    void validateReportsEachInterface() throws Exception {
        JsonNode rows = cli("baremetal", "node", "validate", "n3", "-f", "json").ok().json();
        Set<String> interfaces = column(rows, "Interface");
        assertTrue(interfaces.containsAll(Set.of("boot", "deploy", "management", "power")), rows.toString());
        for (String iface : List.of("management", "power")) {
            JsonNode row = StreamSupport.stream(rows.spliterator(), false)
                    .filter(r -> iface.equals(r.get("Interface").asText())).findFirst().orElseThrow();
            assertTrue(row.get("Result").isBoolean() && row.get("Result").asBoolean(), row.toString());
        }
    }

    @Test
    @Order(51)
    void aFailingCleanStepMakesWaitExitNonZeroWithLastError() throws Exception {
        cli("baremetal", "node", "set", "n3", "--driver-info", "fake_fail_steps=[\"deploy.erase_devices_metadata\"]").ok();
        Path steps = Files.writeString(dataDir.resolve("failing-step.json"),
                "[{\"interface\": \"deploy\", \"step\": \"erase_devices_metadata\"}]");
        // --wait stops at once on a state ending in " failed" and prints last_error.
        Run run = cli("baremetal", "node", "clean", "n3", "--clean-steps", steps.toString(), "--wait", "60").failed();
        assertTrue(run.message().contains("Node n3 failed to reach state manageable. It's in state clean failed, and has "
                + "error: "), run::toString);
        JsonNode node = show("n3");
        assertEquals("clean failed", node.get("provision_state").asText(), node.toString());
        assertTrue(run.message().contains(node.get("last_error").asText()), run::toString);

        // Ironic also puts the node in maintenance when a step fails: the operator's way back is unset, then manage.
        cli("baremetal", "node", "unset", "n3", "--driver-info", "fake_fail_steps").ok();
        cli("baremetal", "node", "maintenance", "unset", "n3").ok();
        cli("baremetal", "node", "manage", "n3", "--wait", "60").ok();
        assertStable("n3", "manageable");
    }

    // ---------------------------------------------------------------- abort in clean wait

    @Test
    @Order(55)
    void abortInCleanWaitEndsInCleanFailed() throws Exception {
        cli("baremetal", "node", "manage", "n4", "--wait", "60").ok();
        Path steps = Files.writeString(dataDir.resolve("slow-step.json"), "[{\"interface\": \"deploy\", \"step\": \"erase_devices\"}]");
        cli("baremetal", "node", "clean", "n4", "--clean-steps", steps.toString()).ok();
        JsonNode node = awaitState("n4", "clean wait");
        assertEquals("manageable", node.get("target_provision_state").asText());
        assertEquals("erase_devices", node.get("clean_step").get("step").asText(), node.toString());

        cli("baremetal", "node", "abort", "n4").ok();
        node = awaitState("n4", "clean failed");
        assertFalse(node.get("last_error").isNull(), "an aborted clean says why in last_error: " + node);

        Run provide = cli("baremetal", "node", "provide", "n4", "--wait", "30").failed();
        assertTrue(provide.message().contains("while it is in state \"clean failed\". (HTTP 400)"), provide::toString);
        cli("baremetal", "node", "manage", "n4", "--wait", "60").ok();
        assertStable("n4", "manageable");
    }

    // ---------------------------------------------------------------- ports and VIFs

    @Test
    @Order(56)
    void portsAreCreatedListedAndTheirAddressIsUnique() throws Exception {
        String n2 = show("n2").get("uuid").asText();
        JsonNode port = cli("baremetal", "port", "create", "52:54:00:12:34:56", "--node", n2, "--extra", "nic=eth0",
                "-f", "json").ok().json();
        assertEquals("52:54:00:12:34:56", port.get("address").asText(), port.toString());
        assertEquals(n2, port.get("node_uuid").asText(), port.toString());
        assertTrue(port.get("pxe_enabled").asBoolean(), port.toString());
        cli("baremetal", "port", "create", "52:54:00:12:34:57", "--node", n2).ok();

        JsonNode rows = cli("baremetal", "port", "list", "--node", "n2", "-f", "json").ok().json();
        assertEquals(Set.of("52:54:00:12:34:56", "52:54:00:12:34:57"), column(rows, "Address"), rows.toString());
        JsonNode shown = cli("baremetal", "port", "show", port.get("uuid").asText(), "-f", "json").ok().json();
        assertEquals("eth0", shown.get("extra").get("nic").asText(), shown.toString());

        Run taken = cli("baremetal", "port", "create", "52:54:00:12:34:56", "--node", n2).failed();
        assertTrue(taken.message().contains("A port with MAC address 52:54:00:12:34:56 already exists. (HTTP 409)"),
                taken::toString);
    }

    @Test
    @Order(57)
    void vifsAreAttachedToFreePortsListedAndDetached() throws Exception {
        cli("baremetal", "node", "vif", "attach", "n2", "vif-a").ok();
        cli("baremetal", "node", "vif", "attach", "n2", "vif-b").ok();
        JsonNode vifs = cli("baremetal", "node", "vif", "list", "n2", "-f", "json").ok().json();
        assertEquals(Set.of("vif-a", "vif-b"), column(vifs, "ID"), vifs.toString());
        Run full = cli("baremetal", "node", "vif", "attach", "n2", "vif-c").failed();
        assertTrue(full.message().contains("not enough free physical ports"), full::toString);
        JsonNode ports = cli("baremetal", "port", "list", "--node", "n2", "--long", "-f", "json").ok().json();
        Set<String> held = new HashSet<>();
        ports.forEach(p -> held.add(p.get("Internal Info").get("tenant_vif_port_id").asText()));
        assertEquals(Set.of("vif-a", "vif-b"), held, "Ironic keeps a VIF in its port's internal_info: " + ports);
        cli("baremetal", "node", "vif", "detach", "n2", "vif-a").ok();
        vifs = cli("baremetal", "node", "vif", "list", "n2", "-f", "json").ok().json();
        assertEquals(Set.of("vif-b"), column(vifs, "ID"), vifs.toString());
    }

    @Test
    @Order(58)
    void portgroupsAreCreatedListedShownAndKeptWhileTheyHavePorts() throws Exception {
        String n2 = show("n2").get("uuid").asText();
        JsonNode group = cli("baremetal", "port", "group", "create", "--node", n2, "--name", "bond0", "--address",
                "52:54:00:12:34:60", "--mode", "802.3ad", "--property", "miimon=100", "-f", "json").ok().json();
        assertEquals("bond0", group.get("name").asText(), group.toString());
        assertEquals("802.3ad", group.get("mode").asText(), group.toString());
        assertEquals("100", group.get("properties").get("miimon").asText(), group.toString());
        String uuid = group.get("uuid").asText();
        JsonNode rows = cli("baremetal", "port", "group", "list", "-f", "json").ok().json();
        assertEquals(Set.of("bond0"), column(rows, "Name"), rows.toString());
        JsonNode shown = cli("baremetal", "port", "group", "show", "bond0", "-f", "json").ok().json();
        assertEquals(uuid, shown.get("uuid").asText(), shown.toString());
        assertEquals(n2, shown.get("node_uuid").asText(), shown.toString());
        // The CLI retries every 409 five times, 2 s apart (ironicclient's with_retries, as against Ironic): the taken MAC
        // above shows how it reports a conflict, so this test asks the API for its two conflicts directly.
        HttpResponse<String> taken = atLatest("POST", "/v1/portgroups", "{\"node_uuid\": \"" + n2 + "\", \"name\": \"bond0\"}");
        assertEquals(409, taken.statusCode(), taken.body());
        assertTrue(taken.body().contains("A portgroup with name bond0 already exists."), taken.body());

        JsonNode member = cli("baremetal", "port", "create", "52:54:00:12:34:58", "--node", n2, "--port-group", uuid,
                "-f", "json").ok().json();
        assertEquals(uuid, member.get("portgroup_uuid").asText(), member.toString());
        JsonNode ports = cli("baremetal", "port", "list", "--port-group", uuid, "-f", "json").ok().json();
        assertEquals(Set.of("52:54:00:12:34:58"), column(ports, "Address"), ports.toString());
        HttpResponse<String> notEmpty = atLatest("DELETE", "/v1/portgroups/bond0", null);
        assertEquals(409, notEmpty.statusCode(), notEmpty.body());
        assertTrue(notEmpty.body().contains("contains ports"), notEmpty.body());
        assertEquals(uuid, cli("baremetal", "port", "group", "show", "bond0", "-f", "json").ok().json().get("uuid").asText(),
                "kept while it has ports");

        cli("baremetal", "port", "delete", member.get("uuid").asText()).ok();
        cli("baremetal", "port", "group", "delete", "bond0").ok();
        assertEquals(0, cli("baremetal", "port", "group", "list", "-f", "json").ok().json().size());
    }

    /**
     * gophercloud, as Metal3's baremetal-operator uses it: Debian's golang-github-gophercloud-gophercloud-dev (0.12.0)
     * built offline in GOPATH mode; its BIOS read goes through gophercloud's ServiceClient, as 0.12 has no typed call
     * for it. Runs when Go and that package are installed (.ci/run installs both).
     */
    @Test
    @Order(59)
    void gophercloudEnrollsCreatesPortsReadsBiosAndManagesAsMetal3Does() throws Exception {
        Path go = Path.of("/usr/bin/go");
        Path gophercloud = Path.of("/usr/share/gocode/src/github.com/gophercloud/gophercloud");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(go) && Files.isDirectory(gophercloud),
                "Go and Debian's golang-github-gophercloud-gophercloud-dev are not installed");
        Path program = Path.of("src", "test", "go", "metal3calls", "main.go").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(go.toString(), "run", program.toString(), stack.api() + "/v1", "metal3-node");
        builder.environment().put("GO111MODULE", "off");
        builder.environment().put("GOPATH", "/usr/share/gocode");
        builder.environment().put("GOFLAGS", "");
        builder.environment().put("GOPROXY", "off");
        builder.environment().put("GOCACHE", Files.createDirectories(dataDir.resolve("go-cache")).toString());
        builder.environment().put("HOME", dataDir.toString());
        Process process = builder.start();
        CompletableFuture<String> stdout = drain(process.getInputStream());
        CompletableFuture<String> stderr = drain(process.getErrorStream());
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail("go run did not finish within 300 s: " + stdout.getNow("") + stderr.getNow(""));
        }
        String out = stdout.get(10, TimeUnit.SECONDS);
        String err = stderr.get(10, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), out + "\n" + err);
        assertTrue(out.contains("port list: 2") && out.contains("manage: manageable")
                && out.contains("bios setting list: ") && out.strip().endsWith("ok"), out);
        assertEquals(1, cli("baremetal", "node", "show", "metal3-node").failed().exitCode(), "deleted at the end");
    }

    // ---------------------------------------------------------------- drivers

    @Test
    @Order(60)
    void driverListNamesFakeHardwareWithItsConductor() throws Exception {
        JsonNode rows = cli("baremetal", "driver", "list", "-f", "json").ok().json();
        JsonNode fake = StreamSupport.stream(rows.spliterator(), false)
                .filter(r -> "fake-hardware".equals(r.get("Supported driver(s)").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no fake-hardware in " + rows));
        assertFalse(fake.get("Active host(s)").asText().isBlank(), fake.toString());
    }

    @Test
    @Order(61)
    void driverShowDescribesFakeHardware() throws Exception {
        JsonNode driver = cli("baremetal", "driver", "show", "fake-hardware", "-f", "json").ok().json();
        assertEquals("fake-hardware", driver.get("name").asText());
        assertEquals("dynamic", driver.get("type").asText(), driver.toString());
        assertFalse(driver.get("hosts").asText().isBlank(), driver.toString());
        Run missing = cli("baremetal", "driver", "show", "no-such-driver").failed();
        assertTrue(missing.message().contains("(HTTP 404)"), missing::toString);
    }

    // ---------------------------------------------------------------- microversions

    @Test
    @Order(70)
    void everyResponseCarriesTheVersionHeadersTheClientNegotiatesWith() throws Exception {
        Run run = cli("--debug", "baremetal", "node", "show", "n1", "-f", "json").ok();
        List<String> responses = run.stderr().lines().filter(l -> l.startsWith("RESP: [")).toList();
        assertFalse(responses.isEmpty(), run::toString);
        // keystoneauth logs each response's headers on its RESP line, as the server spelled them (case varies).
        String last = responses.get(responses.size() - 1);
        String headers = last.toLowerCase(Locale.ROOT);
        assertTrue(last.startsWith("RESP: [200]"), last);
        assertTrue(headers.matches(".*x-openstack-ironic-api-minimum-version: 1\\.1(\\s.*|$)"), last);
        assertTrue(headers.contains("x-openstack-ironic-api-maximum-version: 1."), last);
        assertTrue(headers.contains("x-openstack-ironic-api-version: 1."), last);
    }

    @Test
    @Order(71)
    void aVerbNewerThanTheRequestedVersionIsRefusedWith406() throws Exception {
        // manage needs 1.4: at 1.1 Ironic answers 406, and a client pinned to 1.1 reports the supported range.
        // By uuid: names need 1.5, so at 1.1 Ironic would refuse "n1" with a 400 before looking at the verb.
        Run run = cli("--os-baremetal-api-version", "1.1", "baremetal", "node", "manage", n1).failed();
        assertTrue(run.message().contains("Requested API version 1.1 is not supported by the server, client, or the "
                + "requested operation is not supported by the requested version. Supported version range is 1.1 to"),
                run::toString);
        assertEquals("enroll", show("n1").get("provision_state").asText());
    }

    @Test
    @Order(72)
    void fieldsNewerThanTheRequestedVersionAreNotShown() throws Exception {
        JsonNode node = cli("--os-baremetal-api-version", "1.60", "baremetal", "node", "show", "n1", "-f", "json").ok().json();
        assertEquals("n1", node.get("name").asText());
        assertFalse(node.has("retired"), "retired is 1.61: " + node);
        assertFalse(node.has("retired_reason"), "retired_reason is 1.61: " + node);
    }

    // ---------------------------------------------------------------- delete

    @Test
    @Order(80)
    void deleteRemovesTheNode() throws Exception {
        Run run = cli("baremetal", "node", "delete", "n1", "n3").ok();
        assertTrue(run.stdout().contains("Deleted node n1"), run::toString);
        assertTrue(run.stdout().contains("Deleted node n3"), run::toString);
        Run gone = cli("baremetal", "node", "show", n1).failed();
        assertTrue(gone.message().contains("Node " + n1 + " could not be found. (HTTP 404)"), gone::toString);
        assertEquals(Set.of("n2", "n4"), column(list(), "Name"));
    }

    // ---------------------------------------------------------------- helpers

    private Run cli(String... args) throws Exception {
        return client.none(args);
    }

    /** Runs {@code /usr/bin/openstack args} standalone against the stack, {@code input} on its stdin. */
    private Run cliWithInput(String input, String... args) throws Exception {
        return client.noneWithInput(input, args);
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "<unreadable: " + e + ">";
            }
        });
    }

    private JsonNode show(String ident) throws Exception {
        return cli("baremetal", "node", "show", ident, "-f", "json").ok().json();
    }

    /** {@code node list options}, the rows of this class's nodes only, in the order listed. */
    private JsonNode list(String... options) throws Exception {
        com.fasterxml.jackson.databind.node.ArrayNode mine = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        listAll(options).forEach(row -> {
            if (MINE.contains(row.path("Name").asText())) {
                mine.add(row);
            }
        });
        return mine;
    }

    /** {@code node list options}, every row: the shared stack's other nodes too. */
    private JsonNode listAll(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("baremetal", "node", "list"));
        args.addAll(Arrays.asList(options));
        args.addAll(List.of("-f", "json"));
        JsonNode rows = cli(args.toArray(String[]::new)).ok().json();
        assertTrue(rows.isArray(), rows.toString());
        return rows;
    }

    /** The node is in {@code state} with no target: where {@code --wait} stops. */
    private JsonNode assertStable(String ident, String state) throws Exception {
        JsonNode node = show(ident);
        assertEquals(state, node.get("provision_state").asText(), node.toString());
        assertTrue(node.get("target_provision_state").isNull(), node.toString());
        return node;
    }

    /** Polls {@code node show} (fast, a few seconds at most) until the node is in {@code state}. */
    private JsonNode awaitState(String ident, String state) throws Exception {
        return await(ident + " " + state).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> show(ident), matching("provision_state " + state, node -> state.equals(node.get("provision_state").asText())));
    }

    /** A GET at the server's maximum version, as a client newer than this CLI sends it. */
    private HttpResponse<String> getAtLatest(String path) throws Exception {
        return atLatest("GET", path, null);
    }

    /** A PUT at the server's maximum version, as a client newer than this CLI sends it. */
    private HttpResponse<String> putAtLatest(String path, String body) throws Exception {
        return atLatest("PUT", path, body);
    }

    /** A request at the server's maximum version, as a client newer than this CLI sends it; {@code body} may be null. */
    private HttpResponse<String> atLatest(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.api() + path))
                .header("X-OpenStack-Ironic-API-Version", "latest").timeout(COMMAND);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** History is projected from node-events a moment after each transition: polls until it has {@code atLeast} rows. */
    private JsonNode awaitHistory(String ident, int atLeast) throws Exception {
        return await(ident + "'s history").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> cli("baremetal", "node", "history", "list", ident, "-f", "json").ok().json(),
                        matching(atLeast + " entries or more", rows -> rows.size() >= atLeast));
    }

    private static Set<String> fieldNames(JsonNode object) {
        Set<String> names = new HashSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Set<String> column(JsonNode rows, String label) {
        Set<String> values = new HashSet<>();
        rows.forEach(row -> values.add(row.get(label).asText()));
        return values;
    }

    private static List<String> names(JsonNode rows) {
        List<String> names = new ArrayList<>();
        rows.forEach(row -> names.add(row.get("Name").asText()));
        return names;
    }

    private static JsonNode row(JsonNode rows, String name) {
        return StreamSupport.stream(rows.spliterator(), false).filter(r -> name.equals(r.get("Name").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no row named " + name + " in " + rows));
    }
}
