package io.ironflow.api.ports;

import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import java.util.Map;

/**
 * The ports of one owner that the path names by uuid or name ({@code .../{ident}/ports} and {@code .../ports/detail}):
 * the list of /v1/ports ({@link PortList}) narrowed to that owner; an unknown owner is 404. A subclass says which
 * owner its path names and from which version it exists.
 */
abstract class ScopedPortsResource {

    private final PortReader ports;
    private final NodeReader nodes;
    private final PortgroupReader portgroups;
    private final RequestedVersion version;

    ScopedPortsResource(PortReader ports, NodeReader nodes, PortgroupReader portgroups, RequestedVersion version) {
        this.ports = ports;
        this.nodes = nodes;
        this.portgroups = portgroups;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @Context UriInfo uri) {
        return page(ident, uri, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@PathParam("ident") String ident, @Context UriInfo uri) {
        return page(ident, uri, true);
    }

    /** The owner's page: {@code nodeIdent} or {@code portgroupIdent} is {@code ident}, the other null. */
    abstract Uni<Map<String, Object>> page(String ident, UriInfo uri, ApiVersion version, boolean detail);

    final Uni<Map<String, Object>> page(UriInfo uri, ApiVersion version, String nodeIdent, String portgroupIdent, boolean detail) {
        return PortList.page(ports, nodes, portgroups, uri, version, nodeIdent, portgroupIdent, detail);
    }

    private Uni<Map<String, Object>> page(String ident, UriInfo uri, boolean detail) {
        return page(ident, uri, version.get(), detail);
    }
}
