package io.ironflow.conductor.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.stat.Statistics;

/**
 * Proves a query reuses Hibernate's cached plan: after a first call (which may plan it), more calls must not miss
 * the query plan cache. A native select whose result-set mapping is not equal from one call to the next misses
 * every time and adds one more plan under the same SQL, hence the same hash: the cache grows a collision chain
 * that every later lookup walks (issue 16: 6.5 % of the conductor's CPU). Counts Hibernate's statistics, which
 * it switches on for the call and off after; the count is the whole factory's, so a background duty's leaking
 * query would fail the check too, as it should.
 */
public final class PlanCache {

    private static final int CALLS = 20;

    private PlanCache() {
    }

    /** Runs {@code call} (on a Vert.x context, in a session) once, then {@value #CALLS} times with no plan cache miss. */
    public static void assertReused(Mutiny.SessionFactory factory, String what, Supplier<Uni<?>> call) throws Throwable {
        Statistics statistics = factory.getStatistics();
        boolean enabled = statistics.isStatisticsEnabled();
        statistics.setStatisticsEnabled(true);
        try {
            run(call);
            long before = statistics.getQueryPlanCacheMissCount();
            for (int i = 0; i < CALLS; i++) {
                run(call);
            }
            assertEquals(0, statistics.getQueryPlanCacheMissCount() - before,
                    what + ": plan cache misses over " + CALLS + " calls of the same query; plans " + plans(factory));
        } finally {
            statistics.setStatisticsEnabled(enabled);
        }
    }

    private static String plans(Mutiny.SessionFactory factory) {
        try {
            Object target = io.quarkus.arc.ClientProxy.unwrap(factory);
            var field = target.getClass().getDeclaredField("delegate");
            field.setAccessible(true);
            var sf = (org.hibernate.engine.spi.SessionFactoryImplementor) field.get(target);
            var cache = sf.getQueryEngine().getInterpretationCache();
            return cache.getClass().getName() + " " + cache.getNumberOfCachedQueryPlans();
        } catch (ReflectiveOperationException e) {
            return e.toString();
        }
    }

    private static void run(Supplier<Uni<?>> call) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> call.get().replaceWithVoid()));
    }
}
