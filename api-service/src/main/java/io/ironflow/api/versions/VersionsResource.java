package io.ironflow.api.versions;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ironic's version documents (api-ref api-root-response and api-v1-root-response). Clients read them to
 * negotiate: python-ironicclient after a 406, gophercloud from the {@code version} object of {@code /v1}.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class VersionsResource {

    @GET
    public Map<String, Object> versions(@Context UriInfo uri) {
        Map<String, Object> v1 = version(rootOf(uri));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", "OpenStack Ironic API");
        doc.put("description", "Ironic is an OpenStack project which enables the provision and management of"
                + " baremetal machines. This endpoint is served by Ironflow, which speaks its API v1.");
        doc.put("default_version", v1);
        doc.put("versions", List.of(v1));
        return doc;
    }

    @GET
    @Path("v1")
    public Map<String, Object> v1(@Context UriInfo uri) {
        String root = rootOf(uri);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", "v1");
        doc.put("links", List.of(
                link(root + "v1/", "self"),
                Map.of("href", "https://docs.openstack.org/ironic/latest/contributor/webapi.html",
                        "rel", "describedby", "type", "text/html")));
        doc.put("media_types", List.of(Map.of("base", "application/json",
                "type", "application/vnd.openstack.ironic.v1+json")));
        doc.put("nodes", List.of(link(root + "v1/nodes/", "self"), link(root + "nodes/", "bookmark")));
        doc.put("drivers", List.of(link(root + "v1/drivers/", "self"), link(root + "drivers/", "bookmark")));
        doc.put("version", version(root));
        return doc;
    }

    private static Map<String, Object> version(String root) {
        Map<String, Object> version = new LinkedHashMap<>();
        version.put("id", "v1");
        version.put("links", List.of(link(root + "v1/", "self")));
        version.put("status", "CURRENT");
        version.put("min_version", ApiVersion.MIN.toString());
        version.put("version", ApiVersion.MAX.toString());
        return version;
    }

    private static Map<String, String> link(String href, String rel) {
        return Map.of("href", href, "rel", rel);
    }

    private static String rootOf(UriInfo uri) {
        String base = uri.getBaseUri().toString();
        return base.endsWith("/") ? base : base + "/";
    }
}
