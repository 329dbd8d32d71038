package io.ironflow.teardown;

import static io.ironflow.teardown.KubeFixtures.k8s;
import static io.ironflow.teardown.KubeFixtures.node;
import static io.ironflow.teardown.KubeFixtures.pod;
import static io.ironflow.teardown.NodeStepsTest.airship;
import static io.ironflow.teardown.NodeStepsTest.post;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The etcd steps and the whole decommission against a real three-member etcd cluster (node-0..2). */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(TeardownPeers.class)
class EtcdStepsTest {

    static final String REF = "deckhand+http://127.0.0.1/api/v1.0/revisions/1/rendered-documents";

    @AfterEach
    void wholeClusterAgain() {
        TeardownPeers.freshEtcd();
    }

    static ValidatableResponse health() {
        return given().queryParam("design_ref", REF).get("/api/v1.0/etcd-cluster-health-statuses").then();
    }

    static ValidatableResponse members() {
        return health().statusCode(200);
    }

    @Test
    void healthNeedsADesignRefAndReportsEveryMember() {
        airship(given().get("/api/v1.0/etcd-cluster-health-statuses").then(), 400, "MissingDesignRef");
        airship(health(), 200, "Success");
        health().body("details.messageList.name", containsInAnyOrder("node-0", "node-1", "node-2"))
                .body("details.messageList.message", contains("Healthy", "Healthy", "Healthy"))
                .body("details.messageList.kind", hasItem("HealthMessage")).body("details.errorCount", equalTo(0));

        TeardownPeers.etcd().stop("node-2");
        health().statusCode(200).body("details.errorCount", equalTo(1))
                .body("details.messageList.find { it.name == 'node-2' }.message", equalTo("Unable to access Etcd"))
                .body("details.messageList.find { it.name == 'node-2' }.error", equalTo(true));
    }

    @Test
    void removeEtcdRemovesTheNodesMemberWhileTheOthersKeepAQuorum() {
        node("node-1");
        airship(post("/nodes/node-1/remove-etcd?timeout=30"), 200, "Success");
        health().body("details.messageList.name", containsInAnyOrder("node-0", "node-2"));
        ValidatableResponse again = post("/nodes/node-1/remove-etcd?timeout=30");
        airship(again, 200, "Success");
        again.body("details.messageList.message", hasItem(containsString("runs no etcd member")));
    }

    @Test
    void removeEtcdRefusesWhenTheRemainingMembersWouldLoseTheirQuorum() {
        node("node-0");
        TeardownPeers.etcd().stop("node-2");
        long started = System.nanoTime();
        ValidatableResponse refused = post("/nodes/node-0/remove-etcd?timeout=3");
        airship(refused, 500, "RemoveEtcdError");
        refused.body("message", containsString("would break the cluster"));
        assertTrue(java.time.Duration.ofNanos(System.nanoTime() - started).toMillis() >= 2000,
                "a member restarting may be back within the timeout: it is waited for, not refused at once");
        health().body("details.messageList.name", containsInAnyOrder("node-0", "node-1", "node-2"));
    }

    @Test
    void removeEtcdWantsTheDesignReference() {
        node("node-2");
        airship(given().post("/api/v1.0/nodes/node-2/remove-etcd").then(), 400, "BadRequest");
    }

    @Test
    void decommissionRunsEveryStepAndLeavesANodeReadyForRemoval() {
        node("node-2");
        pod("decom", "app-1", "node-2", Map.of("app", "a"), "ReplicaSet", "a");
        ValidatableResponse done = post("/nodes/node-2/decommission?drain-node-timeout=30&drain-node-grace-period=5"
                + "&clear-labels-timeout=10&remove-etcd-timeout=30&etcd-ready-timeout=30");
        airship(done, 200, "Success");
        done.body("details.messageList.name", hasItem("shutdown-kubelet")).body("details.errorCount", equalTo(0));
        health().body("details.messageList.name", containsInAnyOrder("node-0", "node-1"));
        assertEquals(0, KubeFixtures.podsOn("node-2"));
        assertEquals("enabled", k8s().nodes().withName("node-2").get().getMetadata().getLabels().get("promenade-decomission"));
        airship(post("/nodes/node-2/remove-from-cluster"), 200, "Success");
    }

    @Test
    void aFailingStepStopsTheDecommissionAsDisassociateStepFailure() {
        node("node-0");
        TeardownPeers.etcd().stop("node-1");
        ValidatableResponse failed = post("/nodes/node-0/decommission?drain-node-timeout=30&drain-node-grace-period=5&remove-etcd-timeout=5");
        airship(failed, 500, "DisassociateStepFailure");
        failed.body("details.messageList.find { it.name == 'remove-etcd' }.error", equalTo(true))
                .body("details.messageList.find { it.name == 'drain' }.error", equalTo(false));
    }
}
