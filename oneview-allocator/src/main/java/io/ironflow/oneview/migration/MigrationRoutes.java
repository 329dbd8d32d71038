package io.ironflow.oneview.migration;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.ironflow.schemas.OsloBooleans;
import java.util.List;
import java.util.Optional;

/**
 * The migration as an admin command on the allocator's port:
 * {@code POST /admin/migrate-to-dynamic-allocation?dry_run=true} prints the plan (a JSON array, one step per
 * pre-allocated node) and changes nothing; without {@code dry_run} it carries the plan out and prints each step's
 * outcome. {@code dry_run} takes the values oslo's {@code bool_from_string} takes (true, 1, yes, on, t, y and their
 * opposites): any other value, an empty one or two of them answers 400 and runs nothing, since a real run powers
 * off and strips available nodes' profiles.
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
            List<String> values = ctx.queryParam("dry_run");
            Optional<Boolean> dryRun = values.size() == 1 ? OsloBooleans.parse(values.get(0))
                    : values.isEmpty() ? Optional.of(false) : Optional.empty();
            if (dryRun.isEmpty()) {
                ctx.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                        .end("{\"error\":" + json.valueToTree("dry_run must be given once, as true or false, not "
                                + values) + "}\n");
                return;
            }
            try {
                ctx.response().putHeader("Content-Type", "application/json")
                        .end(json.writerWithDefaultPrettyPrinter().writeValueAsString(migration.run(dryRun.get())) + "\n");
            } catch (Exception e) {
                ctx.response().setStatusCode(503).putHeader("Content-Type", "application/json")
                        .end("{\"error\":" + json.valueToTree(String.valueOf(e.getMessage())) + "}\n");
            }
        }, false);
    }
}
