package io.ironflow.api.drivers;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads the drivers the conductors registered (their conductor_drivers rows), as Ironic's API reads its
 * conductor_hardware_interfaces table: a driver counts while at least one conductor that registered it has
 * heartbeaten within {@code ironflow.api.conductor-timeout} (Ironic's [conductor]heartbeat_timeout).
 */
@ApplicationScoped
public class DriverReader {

    private static final String SELECT = "SELECT d.driver, array_agg(d.conductor ORDER BY d.conductor) AS hosts,"
            + " (array_agg(d.interfaces ORDER BY d.registered_at DESC))[1] AS interfaces,"
            + " (array_agg(d.properties ORDER BY d.registered_at DESC))[1] AS properties,"
            + " (array_agg(d.clean_steps ORDER BY d.registered_at DESC))[1] AS clean_steps"
            + " FROM conductor_drivers d JOIN conductors c ON c.hostname = d.conductor"
            + " WHERE c.heartbeat_at > now() - make_interval(secs => $1)";

    private final Pool client;
    private final Duration conductorTimeout;

    DriverReader(Pool client,
            @ConfigProperty(name = "ironflow.api.conductor-timeout", defaultValue = "60s") Duration conductorTimeout) {
        this.client = client;
        this.conductorTimeout = conductorTimeout;
    }

    /** Every driver a live conductor offers, by name. */
    public Uni<List<RegisteredDriver>> list() {
        return client.preparedQuery(SELECT + " GROUP BY d.driver ORDER BY d.driver")
                .execute(Tuple.of(timeoutSeconds()))
                .map(rows -> {
                    List<RegisteredDriver> drivers = new ArrayList<>();
                    rows.forEach(row -> drivers.add(toDriver(row)));
                    return drivers;
                });
    }

    /** The driver called {@code name} when a live conductor offers it, else null. */
    public Uni<RegisteredDriver> find(String name) {
        return client.preparedQuery(SELECT + " AND d.driver = $2 GROUP BY d.driver")
                .execute(Tuple.of(timeoutSeconds(), name))
                .map(rows -> rows.iterator().hasNext() ? toDriver(rows.iterator().next()) : null);
    }

    private double timeoutSeconds() {
        return conductorTimeout.toMillis() / 1000d;
    }

    private static RegisteredDriver toDriver(Row row) {
        return new RegisteredDriver(row.getString("driver"), Arrays.asList(row.getArrayOfStrings("hosts")),
                (JsonObject) row.getValue("interfaces"), (JsonObject) row.getValue("properties"),
                (JsonArray) row.getValue("clean_steps"));
    }
}
