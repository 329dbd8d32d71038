package io.ironflow.api.drivers;

import io.ironflow.api.QueryBooleans;
import io.ironflow.api.errors.ApiError;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ironic's drivers resource: the hardware types the live conductors registered. Reads only (conductor_drivers
 * joined with the conductors' heartbeats); nothing here sends an intent.
 */
@Path("/v1/drivers")
@Produces(MediaType.APPLICATION_JSON)
public class DriversResource {

    private final DriverReader reader;

    DriversResource(DriverReader reader) {
        this.reader = reader;
    }

    /** {@code ?type=classic|dynamic} (classic: none, as in Ironic since classic drivers were removed), {@code ?detail=True}. */
    @GET
    public Uni<Map<String, Object>> list(@QueryParam("type") String type, @QueryParam("detail") String detail,
            @Context UriInfo uri) {
        if (type != null && !type.equals("classic") && !type.equals("dynamic")) {
            throw ApiError.badRequest("\"type\" must be one of \"classic\" or \"dynamic\", if specified.");
        }
        boolean detailed = detail != null && QueryBooleans.parse(detail, "");
        return reader.list().map(drivers -> Map.of("drivers", "classic".equals(type) ? List.of()
                : drivers.stream().map(d -> DriverDocument.of(d, uri.getBaseUri(), detailed)).toList()));
    }

    @GET
    @Path("/{name}")
    public Uni<Map<String, Object>> show(@PathParam("name") String name, @Context UriInfo uri) {
        return require(name).map(driver -> DriverDocument.of(driver, uri.getBaseUri(), true));
    }

    /** {@code {"<driver_info key>": "<description>"}}, as the driver registered them. */
    @GET
    @Path("/{name}/properties")
    public Uni<Map<String, Object>> properties(@PathParam("name") String name) {
        return require(name).map(driver -> driver.properties() == null ? Map.of() : new TreeMap<>(driver.properties().getMap()));
    }

    private Uni<RegisteredDriver> require(String name) {
        return reader.find(name).map(driver -> {
            if (driver == null) {
                throw ApiError.notFound(notFound(name));
            }
            return driver;
        });
    }

    /** Ironic's DriverNotFound. */
    static String notFound(String name) {
        return "Could not find the following driver(s) or hardware type(s): " + name + ".";
    }
}
