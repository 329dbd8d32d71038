package io.ironflow.api.drivers;

import io.ironflow.api.auth.Access;
import io.ironflow.api.QueryBooleans;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
    private final RequestedVersion version;
    private final Access access;

    DriversResource(DriverReader reader, RequestedVersion version, Access access) {
        this.access = access;
        this.reader = reader;
        this.version = version;
    }

    /** {@code ?type=classic|dynamic} (classic: none, as in Ironic since classic drivers were removed), {@code ?detail=True}. */
    @GET
    public Uni<Map<String, Object>> list(@QueryParam("type") String type, @QueryParam("detail") String detail,
            @QueryParam("fields") String fields, @Context UriInfo uri) {
        access.require(access.caller(), "baremetal:driver:get");
        if (type != null && !type.equals("classic") && !type.equals("dynamic")) {
            throw ApiError.badRequest("\"type\" must be one of \"classic\" or \"dynamic\", if specified.");
        }
        boolean detailed = detail != null && QueryBooleans.parse(detail, "");
        List<String> only = fields(fields, detailed);
        return reader.list().map(drivers -> Map.of("drivers", "classic".equals(type) ? List.of()
                : drivers.stream().map(d -> select(DriverDocument.of(d, uri.getBaseUri(), detailed || only != null), only))
                        .toList()));
    }

    @GET
    @Path("/{name}")
    public Uni<Map<String, Object>> show(@PathParam("name") String name, @QueryParam("fields") String fields,
            @Context UriInfo uri) {
        access.require(access.caller(), "baremetal:driver:get");
        List<String> only = fields(fields, false);
        return require(name).map(driver -> select(DriverDocument.of(driver, uri.getBaseUri(), true), only));
    }

    /** Ironic 1.77's {@code ?fields=}: known driver fields only, and not with {@code detail}. */
    private List<String> fields(String fields, boolean detail) {
        if (fields == null) {
            return null;
        }
        Microversions.requireFeature("driver fields", version.get());
        if (detail) {
            throw ApiError.badRequest("Can not specify ?detail=True and fields in the same request.");
        }
        List<String> only = Arrays.stream(fields.split(",")).map(String::trim).filter(f -> !f.isEmpty()).toList();
        List<String> invalid = only.stream().filter(f -> !DriverDocument.FIELDS.contains(f)).toList();
        if (!invalid.isEmpty()) {
            throw ApiError.badRequest("Field(s) \"" + String.join(", ", invalid) + "\" are not valid");
        }
        return only;
    }

    private static Map<String, Object> select(Map<String, Object> document, List<String> only) {
        if (only == null) {
            return document;
        }
        Map<String, Object> selected = new LinkedHashMap<>();
        only.forEach(field -> selected.put(field, document.get(field)));
        return selected;
    }

    /** {@code {"<driver_info key>": "<description>"}}, as the driver registered them. */
    @GET
    @Path("/{name}/properties")
    public Uni<Map<String, Object>> properties(@PathParam("name") String name) {
        access.require(access.caller(), "baremetal:driver:get_properties");
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
