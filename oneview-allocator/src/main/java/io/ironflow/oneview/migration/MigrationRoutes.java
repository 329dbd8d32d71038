package io.ironflow.oneview.migration;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The migration as an admin command on the allocator's port:
 * {@code POST /admin/migrate-to-dynamic-allocation?dry_run=true} prints the plan (a JSON array, one step per
 * pre-allocated node) and changes nothing; without {@code dry_run} it carries the plan out and prints each step's
 * outcome.
 */
@ApplicationScoped
public class MigrationRoutes {

    private final PreAllocationMigration migration;
    private final ObjectMapper json;

    MigrationRoutes(PreAllocationMigration migration, ObjectMapper json) {
        this.migration = migration;
        this.json = json;
    }

    void routes(@Observes Router router) {
        router.post("/admin/migrate-to-dynamic-allocation").blockingHandler(ctx -> {
            boolean dryRun = "true".equalsIgnoreCase(ctx.request().getParam("dry_run"));
            try {
                ctx.response().putHeader("Content-Type", "application/json")
                        .end(json.writerWithDefaultPrettyPrinter().writeValueAsString(migration.run(dryRun)) + "\n");
            } catch (Exception e) {
                ctx.response().setStatusCode(503).putHeader("Content-Type", "application/json")
                        .end("{\"error\":" + json.valueToTree(String.valueOf(e.getMessage())) + "}\n");
            }
        }, false);
    }
}
