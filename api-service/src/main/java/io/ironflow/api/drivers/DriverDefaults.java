package io.ironflow.api.drivers;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Each live driver's default implementation per interface type, which is what a node's {@code <type>_interface}
 * fields show (Ironflow nodes use their driver's defaults). Read from the registrations at most every few
 * seconds: node lists render thousands of nodes, and registrations change only when a conductor starts.
 */
@ApplicationScoped
public class DriverDefaults {

    private static final Duration FRESH_FOR = Duration.ofSeconds(5);

    private final DriverReader drivers;
    private volatile Map<String, Map<String, String>> cached;
    private volatile long readAt;

    DriverDefaults(DriverReader drivers) {
        this.drivers = drivers;
    }

    /** driver name → interface type → default implementation. */
    public Uni<Map<String, Map<String, String>>> byDriver() {
        Map<String, Map<String, String>> current = cached;
        if (current != null && System.nanoTime() - readAt < FRESH_FOR.toNanos()) {
            return Uni.createFrom().item(current);
        }
        return drivers.list().map(list -> {
            Map<String, Map<String, String>> defaults = new HashMap<>();
            for (RegisteredDriver driver : list) {
                Map<String, String> byType = new HashMap<>();
                for (String type : DriverDocument.INTERFACE_TYPES) {
                    var entry = driver.interfaces() == null ? null : driver.interfaces().getJsonObject(type);
                    if (entry != null && entry.getString("default") != null) {
                        byType.put(type, entry.getString("default"));
                    }
                }
                defaults.put(driver.name(), Map.copyOf(byType));
            }
            cached = Map.copyOf(defaults);
            readAt = System.nanoTime();
            return cached;
        });
    }
}
