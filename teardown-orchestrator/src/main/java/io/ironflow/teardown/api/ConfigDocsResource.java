package io.ironflow.teardown.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.ironflow.teardown.revisions.Revisions;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Shipyard's configdocs at its paths, over {@link Revisions}: {@code POST /configdocs/{collection}} (YAML into the
 * buffer), {@code POST /commitconfigdocs} (a numbered revision), {@code GET /configdocs} (the collections of
 * {@code version}, or each collection's status between {@code base-version} (default committed) and
 * {@code diff-version} (default buffer)), {@code GET /configdocs/{collection}?version=} (its YAML), and
 * {@code GET /revisions/{n}/rendered-documents}, where the design references point. Reading any of them is for admins
 * only, as Shipyard's policy says ({@link SiteDesignAccess}).
 */
@Path("/api/v1.0")
public class ConfigDocsResource {

    @Inject
    Revisions revisions;

    @Inject
    SiteDesignAccess access;

    @POST
    @Path("/configdocs/{collection}")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response put(@PathParam("collection") String collection, String yaml) {
        if (yaml == null || yaml.isBlank()) {
            throw StepFailure.badRequest("the body must be the collection's YAML documents");
        }
        try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
            new ObjectMapper(new YAMLFactory()).readValues(parser, Object.class).readAll();
        } catch (IOException | RuntimeException e) {
            throw StepFailure.badRequest("collection " + collection + " is not valid YAML: " + e.getMessage());
        }
        revisions.putBuffer(collection, yaml);
        return Response.status(201).entity(withCode(AirshipStatus.success("collection " + collection + " is in the buffer", List.of()), 201)).build();
    }

    @POST
    @Path("/commitconfigdocs")
    @Produces(MediaType.APPLICATION_JSON)
    public AirshipStatus commit() {
        int revision = revisions.commit().orElseThrow(() -> StepFailure.badRequest("the buffer is empty: nothing to commit"));
        return AirshipStatus.success("committed revision " + revision, List.of(StatusMessage.info("revision", String.valueOf(revision))));
    }

    @GET
    @Path("/configdocs")
    @Produces(MediaType.APPLICATION_JSON)
    public List<Map<String, Object>> status(@QueryParam("version") String version, @QueryParam("base-version") String baseVersion,
            @QueryParam("diff-version") String diffVersion) {
        access.requireReader("workflow_orchestrator:get_configdocs_status");
        if (version != null) {
            Map<String, String> docs = documents(version);
            Object revision = Revisions.BUFFER.equals(version) ? null : revisions.latest(version).orElse(null);
            List<Map<String, Object>> list = new ArrayList<>();
            docs.keySet().forEach(c -> list.add(entry("collection_name", c, "version", version, "revision", revision)));
            return list;
        }
        String base = baseVersion == null ? Revisions.COMMITTED : baseVersion;
        String diff = diffVersion == null ? Revisions.BUFFER : diffVersion;
        Map<String, String> from = documentsOrEmpty(base);
        Map<String, String> to = documentsOrEmpty(diff);
        TreeSet<String> collections = new TreeSet<>(from.keySet());
        collections.addAll(to.keySet());
        List<Map<String, Object>> list = new ArrayList<>();
        for (String c : collections) {
            String status = !from.containsKey(c) ? "created" : !to.containsKey(c) ? "deleted"
                    : Objects.equals(from.get(c), to.get(c)) ? "unmodified" : "modified";
            list.add(entry("collection_name", c, "base_version", base, "base_revision", revisionOf(base),
                    "new_version", diff, "new_revision", revisionOf(diff), "new_status", status));
        }
        return list;
    }

    @GET
    @Path("/configdocs/{collection}")
    @Produces("application/x-yaml")
    public String collection(@PathParam("collection") String collection, @QueryParam("version") String version) {
        access.requireReader("workflow_orchestrator:get_configdocs");
        String yaml = documents(version == null ? Revisions.BUFFER : version).get(collection);
        if (yaml == null) {
            throw StepFailure.notFound("collection " + collection + " is not in version " + version);
        }
        return yaml;
    }

    @GET
    @Path("/revisions/{revision}/rendered-documents")
    @Produces("application/x-yaml")
    public String rendered(@PathParam("revision") int revision) {
        access.requireReader("workflow_orchestrator:get_renderedconfigdocs");
        Map<String, String> docs = revisions.documentsAt(revision);
        if (docs.isEmpty()) {
            throw StepFailure.notFound("revision " + revision + " does not exist");
        }
        return String.join("\n---\n", docs.values());
    }

    @GET
    @Path("/revisions/{revision}/tags")
    @Produces(MediaType.APPLICATION_JSON)
    public List<String> tags(@PathParam("revision") int revision) {
        return revisions.tags(revision);
    }

    private Map<String, String> documents(String version) {
        check(version);
        return revisions.documentsOf(version).orElseThrow(() -> StepFailure.notFound("no revision is " + version));
    }

    private Map<String, String> documentsOrEmpty(String version) {
        check(version);
        return revisions.documentsOf(version).orElse(Map.of());
    }

    private Object revisionOf(String version) {
        return Revisions.BUFFER.equals(version) ? null : revisions.latest(version).orElse(null);
    }

    private static void check(String version) {
        if (!Revisions.VERSIONS.contains(version)) {
            throw StepFailure.badRequest("version must be one of " + Revisions.VERSIONS + ", not " + version);
        }
    }

    private static Map<String, Object> entry(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    private static AirshipStatus withCode(AirshipStatus s, int code) {
        return new AirshipStatus(s.kind(), s.apiVersion(), s.metadata(), s.status(), s.message(), s.reason(), s.details(), code);
    }
}
