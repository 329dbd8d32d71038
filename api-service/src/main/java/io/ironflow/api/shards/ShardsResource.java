package io.ironflow.api.shards;

import io.ironflow.api.auth.Access;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/shards} (Ironic's ShardController, API 1.82): each shard that has nodes, with how many, the
 * largest first (Ironic's get_shard_list; nodes in no shard are not a shard). Not paginated, as in Ironic.
 */
@Path("/v1/shards")
@Produces(MediaType.APPLICATION_JSON)
public class ShardsResource {

    private final Pool client;
    private final RequestedVersion version;

    private final Access access;

    ShardsResource(Pool client, RequestedVersion version, Access access) {
        this.access = access;
        this.client = client;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list() {
        Microversions.requireResource("shards", version.get(), "/v1/shards");
        access.require(access.caller(), "baremetal:shards:get");
        return client.query("SELECT shard, count(*) AS count FROM nodes WHERE shard IS NOT NULL GROUP BY shard"
                + " ORDER BY count(*) DESC, shard").execute().map(rows -> {
                    List<Map<String, Object>> shards = new ArrayList<>();
                    rows.forEach(row -> {
                        Map<String, Object> shard = new LinkedHashMap<>();
                        shard.put("name", row.getString("shard"));
                        shard.put("count", row.getLong("count"));
                        shards.add(shard);
                    });
                    return Map.of("shards", shards);
                });
    }
}
