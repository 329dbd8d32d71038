package io.ironflow.conductor.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.Operation;
import io.ironflow.conductor.domain.ProvisionState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The wait-state scans match the partial index the V2 migration built for them, which stays as written. */
class NodeSqlTest {

    @Test
    void waitStatesAreTheOperationsWaitStates() {
        assertEquals(Set.of(ProvisionState.CLEAN_WAIT, ProvisionState.DEPLOY_WAIT, ProvisionState.INSPECT_WAIT,
                ProvisionState.RESCUE_WAIT), Set.copyOf(Operation.waitStates()));
    }

    @Test
    void waitStatesAreTheListTheWaitingIndexCovers() throws IOException {
        String migration;
        try (InputStream in = getClass().getResourceAsStream("/db/migration/V2__conductors_and_work.sql")) {
            migration = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher index = Pattern.compile("CREATE INDEX nodes_waiting[^;]*WHERE provision_state IN (\\([^)]*\\))").matcher(migration);
        assertTrue(index.find(), "V2 defines the partial index nodes_waiting");
        assertEquals(states(index.group(1)), states(NodeSql.WAIT_STATES));
    }

    private static Set<String> states(String sqlList) {
        return Arrays.stream(sqlList.replaceAll("[()]", "").split(",")).map(String::strip).collect(Collectors.toSet());
    }
}
