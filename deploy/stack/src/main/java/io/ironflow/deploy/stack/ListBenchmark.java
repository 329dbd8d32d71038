package io.ironflow.deploy.stack;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code ./ironflow bench-list [--nodes N] [--requests R] [--api URL] [--jdbc URL]}: how fast the API lists
 * nodes at fleet size. It tops the node table up to N nodes (default 100,000; one in ten retired, states and
 * owners spread as in a real fleet) by writing rows as the conductor does, straight into PostgreSQL, since
 * enrolling 100,000 nodes through intents would measure the conductor instead. Then it times R requests
 * (default 500) of {@code GET /v1/nodes?retired=True&limit=1000} and of the plain first page, one after the
 * other, and prints p50/p99. Its rows carry {@code owner = 'bench-list'}; {@code --cleanup} deletes them.
 */
public final class ListBenchmark {

    static final String OWNER = "bench-list";
    private static final List<String> QUERIES = List.of("/v1/nodes?retired=True&limit=1000", "/v1/nodes?limit=1000",
            "/v1/nodes/detail?provision_state=active&limit=100");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** Seeds the node table to {@code nodes} (or deletes the seeded rows) and times the list queries. */
    static JsonObject run(int nodes, int requests, String api, String jdbc, String password, boolean cleanup) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbc, "ironflow", password)) {
            if (cleanup) {
                try (PreparedStatement delete = db.prepareStatement("DELETE FROM nodes WHERE owner = ?")) {
                    delete.setString(1, OWNER);
                    System.out.printf("Deleted %d benchmark nodes.%n", delete.executeUpdate());
                }
                return new JsonObject();
            }
            seed(db, nodes);
        }
        return new ListBenchmark().time(api, requests);
    }

    private static void seed(Connection db, int wanted) throws SQLException {
        int present;
        try (ResultSet count = db.createStatement().executeQuery("SELECT count(*) FROM nodes")) {
            count.next();
            present = count.getInt(1);
        }
        int missing = wanted - present;
        if (missing <= 0) {
            System.out.printf("The node table holds %d nodes.%n", present);
            return;
        }
        long started = System.nanoTime();
        String sql = "INSERT INTO nodes (uuid, name, driver, driver_info, properties, provision_state, power_state, "
                + "retired, retired_reason, maintenance, owner, resource_class, revision, created_at, updated_at, "
                + "provision_updated_at) "
                + "SELECT gen_random_uuid(), 'bench-' || g || '-' || substr(md5(random()::text), 1, 8), 'fake-hardware', "
                + "jsonb_build_object('ipmi_address', '10.' || (g / 65536) % 256 || '.' || (g / 256) % 256 || '.' || g % 256, "
                + "'ipmi_password', 'secret'), '{\"cpus\": 64, \"memory_mb\": 262144}', "
                + "(ARRAY['available', 'active', 'active', 'active', 'manageable'])[1 + g % 5], 'power on', "
                + "g % 10 = 0, CASE WHEN g % 10 = 0 THEN 'end of life' END, g % 50 = 0, ?, "
                + "(ARRAY['baremetal.gold', 'baremetal.silver'])[1 + g % 2], 1, now(), now(), now() "
                + "FROM generate_series(1, ?) AS g";
        try (PreparedStatement insert = db.prepareStatement(sql)) {
            insert.setString(1, OWNER);
            insert.setInt(2, missing);
            insert.executeUpdate();
        }
        // What autovacuum does to a table after a bulk insert (statistics, the visibility map, hint bits), done
        // before the timing rather than during it: a fleet's table is not measured seconds after it was loaded.
        db.createStatement().execute("VACUUM (ANALYZE) nodes");
        System.out.printf("Added %d nodes (the table holds %d) in %.1f s.%n", missing, wanted,
                (System.nanoTime() - started) / 1e9);
    }

    /** p50/p99 in ms of each query, printed and returned ({query: {p50_ms, p99_ms}}). */
    private JsonObject time(String api, int requests) throws Exception {
        JsonObject timed = new JsonObject();
        for (String query : QUERIES) {
            for (int i = 0; i < Math.min(100, requests); i++) { // warm the JIT and the connection pools
                get(api + query);
            }
            List<Long> latencies = new ArrayList<>();
            int listed = 0;
            for (int i = 0; i < requests; i++) {
                long start = System.nanoTime();
                listed = get(api + query);
                latencies.add(System.nanoTime() - start);
            }
            Collections.sort(latencies);
            System.out.printf("GET %-50s %4d nodes/page  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d requests)%n",
                    query, listed, ms(latencies, 0.50), ms(latencies, 0.99), latencies.get(latencies.size() - 1) / 1e6,
                    requests);
            timed.put(query, new JsonObject().put("p50_ms", Math.round(ms(latencies, 0.50) * 10) / 10.0)
                    .put("p99_ms", Math.round(ms(latencies, 0.99) * 10) / 10.0));
        }
        return timed;
    }

    private int get(String uri) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(uri))
                .header("X-OpenStack-Ironic-API-Version", "latest").build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + uri + " answered " + response.statusCode() + ": " + response.body());
        }
        int nodes = 0;
        for (int at = response.body().indexOf("\"uuid\""); at >= 0; at = response.body().indexOf("\"uuid\"", at + 1)) {
            nodes++;
        }
        return nodes;
    }

    private static double ms(List<Long> sorted, double percentile) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percentile * sorted.size()) - 1)) / 1e6;
    }
}
