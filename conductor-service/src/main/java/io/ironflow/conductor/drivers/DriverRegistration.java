package io.ironflow.conductor.drivers;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.hardware.DriverInterfaces;
import io.ironflow.conductor.domain.hardware.HardwareDriver;
import io.ironflow.conductor.work.ConductorIdentity;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Registers this conductor's hardware types at start-up, as Ironic's conductors do: one {@code conductor_drivers}
 * row per driver, with its interfaces (default and enabled implementations per type), the driver_info
 * properties it reads and its clean-step catalogue. The API lists a driver while a conductor that registered it
 * keeps heartbeating ({@code conductors.heartbeat_at}). Rows of drivers this conductor no longer has are removed.
 */
@ApplicationScoped
public class DriverRegistration {

    private static final Logger LOG = Logger.getLogger(DriverRegistration.class);
    private static final String UPSERT = "INSERT INTO conductor_drivers (conductor, driver, interfaces, properties, clean_steps, registered_at)"
            + " VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (conductor, driver) DO UPDATE SET interfaces = excluded.interfaces,"
            + " properties = excluded.properties, clean_steps = excluded.clean_steps, registered_at = excluded.registered_at";

    private final ConductorIdentity conductor;
    private final Pool client;

    DriverRegistration(ConductorIdentity conductor, Pool client) {
        this.conductor = conductor;
        this.client = client;
    }

    void onStart(@Observes StartupEvent start) {
        List<String> names = Drivers.enabled().stream().sorted().toList();
        List<Tuple> rows = names.stream().map(name -> row(conductor.name(), Drivers.get(name))).toList();
        client.withTransaction(tx -> tx.preparedQuery("DELETE FROM conductor_drivers WHERE conductor = $1 AND NOT (driver = ANY($2))")
                        .execute(Tuple.of(conductor.name(), names.toArray(String[]::new)))
                        .flatMap(deleted -> tx.preparedQuery(UPSERT).executeBatch(rows)))
                .await().atMost(Duration.ofSeconds(30));
        LOG.infof("conductor %s registered drivers %s", conductor.name(), names);
    }

    static Tuple row(String conductor, HardwareDriver driver) {
        JsonObject interfaces = new JsonObject();
        for (String type : DriverInterfaces.TYPES) {
            List<String> enabled = driver.interfaces().getOrDefault(type, List.of());
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("default", enabled.isEmpty() ? null : enabled.get(0));
            entry.put("enabled", new JsonArray(new ArrayList<>(enabled)));
            interfaces.put(type, new JsonObject(entry));
        }
        JsonObject properties = new JsonObject(new LinkedHashMap<>(driver.properties()));
        JsonArray steps = new JsonArray();
        DriverInterfaces.cleanStepsJson(driver).forEach(step -> steps.add(new JsonObject(new LinkedHashMap<>(step))));
        return Tuple.of(conductor, driver.name(), interfaces, properties, steps);
    }
}
