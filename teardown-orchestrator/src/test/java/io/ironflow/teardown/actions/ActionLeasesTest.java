package io.ironflow.teardown.actions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.teardown.TeardownPeers;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Action leases on the test's real PostgreSQL, as two orchestrator instances would hold them, each on a pool of
 * two connections: leases hold no connection (twenty at once), two instances never hold one action, a crashed
 * holder's lease expires and passes to the other instance, and an instance restarted under its name takes its
 * leases back at once.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(TeardownPeers.class)
class ActionLeasesTest {

    private static final int ACTIONS = 20;

    private AgroalDataSource poolA;
    private AgroalDataSource poolB;
    private ExecutorService threads;

    @BeforeEach
    void pools() throws SQLException {
        poolA = smallPool();
        poolB = smallPool();
        threads = Executors.newFixedThreadPool(2 * ACTIONS);
    }

    @AfterEach
    void close() {
        threads.shutdownNow();
        poolA.close();
        poolB.close();
    }

    @Test
    void twentyActionsHoldTheirLeasesAtOnceOnATwoConnectionPool() throws Exception {
        ActionLeases a = new ActionLeases(poolA, "a-" + UUID.randomUUID(), Duration.ofSeconds(30));
        List<String> ids = ids();
        // Each run answers "held" or why not, so a lease not taken fails the test at once with its cause.
        List<CompletableFuture<Void>> held = new ArrayList<>();
        CountDownLatch finish = new CountDownLatch(1);
        List<Future<Boolean>> runs = new ArrayList<>();
        for (String id : ids) {
            CompletableFuture<Void> thisHeld = new CompletableFuture<>();
            held.add(thisHeld);
            runs.add(threads.submit(() -> {
                Optional<ActionLeases.Lease> lease;
                try {
                    lease = a.tryTake(id);
                } catch (RuntimeException e) {
                    thisHeld.completeExceptionally(e);
                    throw e;
                }
                if (lease.isEmpty()) {
                    thisHeld.completeExceptionally(new AssertionError("lease on " + id + " not taken"));
                    return false;
                }
                try (ActionLeases.Lease mine = lease.get()) {
                    thisHeld.complete(null);
                    assertTrue(finish.await(30, TimeUnit.SECONDS));
                    return mine.renew();
                }
            }));
        }
        CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS); // every action runs at once
        assertEquals(ACTIONS, a.renewHeld(), "the heartbeat renews them all");
        finish.countDown();
        for (Future<Boolean> run : runs) {
            assertTrue(run.get(30, TimeUnit.SECONDS));
        }
        assertEquals("0", count(ids), "every lease given up at its run's end");
    }

    @Test
    void twoInstancesNeverHoldTheSameAction() throws Exception {
        ActionLeases a = new ActionLeases(poolA, "a-" + UUID.randomUUID(), Duration.ofSeconds(30));
        ActionLeases b = new ActionLeases(poolB, "b-" + UUID.randomUUID(), Duration.ofSeconds(30));
        List<String> ids = ids();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Optional<ActionLeases.Lease>>> byA = new ArrayList<>();
        List<Future<Optional<ActionLeases.Lease>>> byB = new ArrayList<>();
        for (String id : ids) {
            byA.add(threads.submit(racing(start, a, id)));
            byB.add(threads.submit(racing(start, b, id)));
        }
        start.countDown();
        for (int i = 0; i < ACTIONS; i++) {
            Optional<ActionLeases.Lease> ofA = byA.get(i).get(30, TimeUnit.SECONDS);
            Optional<ActionLeases.Lease> ofB = byB.get(i).get(30, TimeUnit.SECONDS);
            assertTrue(ofA.isPresent() ^ ofB.isPresent(), "action " + i + " held by exactly one instance");
            ActionLeases other = ofA.isPresent() ? b : a;
            assertTrue(other.tryTake(ids.get(i)).isEmpty(), "a held lease is not taken again");
            ofA.ifPresent(ActionLeases.Lease::close);
            ofB.ifPresent(ActionLeases.Lease::close);
        }
        assertEquals("0", count(ids));
    }

    @Test
    void aCrashedHoldersLeaseExpiresAndAnotherInstanceTakesOver() throws SQLException {
        ActionLeases crashed = new ActionLeases(poolA, "crashed-" + UUID.randomUUID(), Duration.ofSeconds(2));
        ActionLeases survivor = new ActionLeases(poolB, "survivor-" + UUID.randomUUID(), Duration.ofSeconds(2));
        String id = ids().get(0);
        ActionLeases.Lease lost = crashed.tryTake(id).orElseThrow();
        assertTrue(survivor.tryTake(id).isEmpty(), "not while the lease runs");
        // The holder crashed: no heartbeat, no release. Its lease expires and the survivor takes the action.
        ActionLeases.Lease taken = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> survivor.tryTake(id), Optional::isPresent).orElseThrow();
        assertFalse(lost.renew(), "the crashed holder learns it lost the action at its next renewal");
        assertEquals(0, crashed.renewHeld());
        assertTrue(taken.renew());
        lost.close(); // giving up a lease it no longer holds takes nothing from the survivor
        assertEquals("1", count(List.of(id)));
        taken.close();
        assertEquals("0", count(List.of(id)));
    }

    /**
     * An instance restarted under its predecessor's name (as {@code ./ironflow up} restarts its one orchestrator,
     * only once the old process has gone) takes the dead one's leases at once, not after {@code lease-ttl}; an
     * instance of another name still waits.
     */
    @Test
    void anInstanceRestartedUnderItsNameTakesItsLeasesBackAtOnce() throws SQLException {
        String name = "restarted-" + UUID.randomUUID();
        ActionLeases dead = new ActionLeases(poolA, name, Duration.ofSeconds(30));
        String id = ids().get(0);
        dead.tryTake(id).orElseThrow(); // then killed: no heartbeat, no release
        ActionLeases other = new ActionLeases(poolB, "other-" + UUID.randomUUID(), Duration.ofSeconds(30));
        assertTrue(other.tryTake(id).isEmpty(), "another name waits for the lease to expire");
        ActionLeases.Lease back = new ActionLeases(poolB, name, Duration.ofSeconds(30)).tryTake(id)
                .orElseThrow(() -> new AssertionError("the restarted instance did not take its lease back"));
        assertTrue(back.renew());
        back.close();
        assertEquals("0", count(List.of(id)));
    }

    private static Callable<Optional<ActionLeases.Lease>> racing(CountDownLatch start, ActionLeases leases, String id) {
        return () -> {
            start.await();
            return leases.tryTake(id);
        };
    }

    private static List<String> ids() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < ACTIONS; i++) {
            ids.add("lease-test-" + UUID.randomUUID());
        }
        return ids;
    }

    private String count(List<String> ids) throws SQLException {
        try (var c = poolA.getConnection(); var s = c.prepareStatement("SELECT count(*) FROM action_leases WHERE action_id = ANY (?)")) {
            s.setArray(1, c.createArrayOf("text", ids.toArray()));
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /**
     * A pool of two connections to the orchestrator's schema, as a second instance would have, both opened before the
     * test starts. On a cold pool, Agroal's waiters spin while its one background thread creates connections
     * (agroal/agroal#214), and twenty of them on a loaded 2-core machine can starve that thread past the acquisition
     * timeout (the likely cause of this test's one failure). A lease that held its connection would still starve the
     * third action on a warm pool.
     */
    private static AgroalDataSource smallPool() throws SQLException {
        Config config = ConfigProvider.getConfig();
        AgroalDataSource pool = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(settings -> settings.minSize(2).maxSize(2).acquisitionTimeout(Duration.ofSeconds(20))
                        .connectionFactoryConfiguration(factory -> factory
                                .jdbcUrl(config.getValue("quarkus.datasource.jdbc.url", String.class))
                                .jdbcProperty("currentSchema", "teardown")
                                .principal(new NamePrincipal(config.getValue("quarkus.datasource.username", String.class)))
                                .credential(new SimplePassword(config.getValue("quarkus.datasource.password", String.class))))));
        try (var first = pool.getConnection(); var second = pool.getConnection()) {
            return pool; // both connections made; closing them returns them to the pool
        }
    }
}
