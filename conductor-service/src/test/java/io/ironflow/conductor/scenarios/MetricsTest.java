package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.Conductor;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.IntentResult;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The conductor's Prometheus metrics move with what it does: intents by command and result, committed
 * transitions by from/event/to, the node gauge per provision state, the intent duration histogram.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class MetricsTest {

    @Test
    void countersFollowIntentsAndTransitions() throws Exception {
        try (Conductor conductor = Conductor.connect()) {
            countersFollow(conductor);
        }
    }

    private static void countersFollow(Conductor conductor) throws Exception {
        double created = value("ironflow_conductor_intents_total", "code=\"201\",command=\"CreateNode\",result=\"applied\"");
        double verified = value("ironflow_conductor_transitions_total", "event=\"done\",from=\"verifying\",to=\"manageable\"");
        double refused = value("ironflow_conductor_intents_total", "code=\"400\",command=\"ProvisionAction\",result=\"refused\"");

        String node = conductor.create(Map.of());
        conductor.drive(node, "manage", "manageable");
        IntentResult bad = conductor.provision(node, "no-such-verb");
        assertEquals(400, bad.getCode(), bad.getErrorMessage());

        // Counted once the answer is committed, which the relay may publish a moment before the count moves.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertEquals(created + 1, value("ironflow_conductor_intents_total",
                    "code=\"201\",command=\"CreateNode\",result=\"applied\""));
            assertEquals(refused + 1, value("ironflow_conductor_intents_total",
                    "code=\"400\",command=\"ProvisionAction\",result=\"refused\""));
        });
        // Transitions are counted once published, which follows the commit closely.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(verified + 1,
                value("ironflow_conductor_transitions_total", "event=\"done\",from=\"verifying\",to=\"manageable\"")));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertTrue(
                value("ironflow_conductor_nodes", "provision_state=\"manageable\"") >= 1));
        assertTrue(value("ironflow_conductor_intent_duration_seconds_count", "command=\"CreateNode\"") >= 1);
        String metrics = given().get("/q/metrics").asString();
        assertTrue(metrics.contains("ironflow_conductor_outbox_backlog"), "no outbox backlog gauge");
        assertTrue(metrics.contains("ironflow_conductor_outbox_relay_lag_seconds_bucket"), "no relay lag histogram");
    }

    @Test
    void theGrafanaDashboardAsksOnlyForMetricsTheConductorServes() throws Exception {
        String dashboard = java.nio.file.Files.readString(java.nio.file.Path.of("../deploy/grafana/ironflow-dashboard.json"));
        try (Conductor conductor = Conductor.connect()) {
            conductor.create(Map.of()); // every meter exists once an intent went through
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String metrics = given().get("/q/metrics").asString();
            Matcher used = Pattern.compile("ironflow_conductor_[a-z_]+").matcher(dashboard);
            int checked = 0;
            while (used.find()) {
                String name = used.group();
                assertTrue(metrics.contains("\n" + name + "{") || metrics.contains("\n" + name + " "),
                        "the dashboard uses " + name + ", which /q/metrics does not serve");
                checked++;
            }
            assertTrue(checked >= 10, "the dashboard names the conductor's metrics");
        });
    }

    /** A sample's value (an exemplar may follow it), 0 when the series does not exist yet; {@code labels} as printed, sorted. */
    static double value(String name, String labels) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher sample = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)", Pattern.MULTILINE).matcher(metrics);
        while (sample.find()) {
            if (sample.group(1).contains(labels)) {
                return Double.parseDouble(sample.group(2));
            }
        }
        return 0;
    }
}
