package io.ironflow.api.ports;

import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.UriInfo;
import java.util.Map;

/**
 * The pages of ports of one owner that a path names by uuid or name, at the request's version: a node's
 * ({@code /v1/nodes/{ident}/ports}) or a portgroup's ({@code /v1/portgroups/{ident}/ports}, from 1.24), each the list of
 * /v1/ports ({@link PortList}) narrowed to that owner; an unknown owner is 404.
 */
@ApplicationScoped
class PortPages {

    private static final String PORTGROUP_PATH = "/v1/portgroups/{ident}/ports";

    private final PortReader ports;
    private final NodeReader nodes;
    private final PortgroupReader portgroups;
    private final RequestedVersion version;

    PortPages(PortReader ports, NodeReader nodes, PortgroupReader portgroups, RequestedVersion version) {
        this.ports = ports;
        this.nodes = nodes;
        this.portgroups = portgroups;
        this.version = version;
    }

    Uni<Map<String, Object>> ofNode(String ident, UriInfo uri, boolean detail) {
        return PortList.page(ports, nodes, portgroups, uri, version.get(), ident, null, detail);
    }

    Uni<Map<String, Object>> ofPortgroup(String ident, UriInfo uri, boolean detail) {
        Microversions.requireResource("ports of a portgroup", version.get(), PORTGROUP_PATH);
        return PortList.page(ports, nodes, portgroups, uri, version.get(), null, ident, detail);
    }
}
