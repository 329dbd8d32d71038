package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's CPU figures: readings of {CPU ticks, RSS kB, JIT compiler threads' ticks} become CPU-ms per
 * action with the JIT's part of it, for JVMs only; and the JIT's ticks are read from a live JVM's threads.
 */
class ProcessCpuTest {

    @Test
    void theJitsPartIsGivenForJvmsOnly() {
        Map<String, long[]> before = new LinkedHashMap<>();
        before.put("conductor-service", new long[] {1_000, 300_000, 200});
        before.put("postgres", new long[] {500, 100_000, 0});
        Map<String, long[]> after = new LinkedHashMap<>();
        after.put("conductor-service", new long[] {1_500, 310_000, 300}); // 5 s, 1 s of it compiling
        after.put("postgres", new long[] {900, 100_000, 0}); // 4 s

        JsonObject json = ProcessCpu.json(before, after, 1_000);
        assertEquals(5.0, json.getJsonObject("conductor-service").getDouble("cpu_ms_per_action"));
        assertEquals(1.0, json.getJsonObject("conductor-service").getDouble("jit_ms_per_action"));
        assertFalse(json.getJsonObject("postgres").containsKey("jit_ms_per_action"));
        assertEquals(9.0, ProcessCpu.totalMsPerAction(before, after, 1_000), 1e-9);
        assertEquals(1.0, ProcessCpu.totalJitMsPerAction(before, after, 1_000), 1e-9);
        String table = ProcessCpu.table(before, after, 1_000);
        assertTrue(table.contains("of it JIT"), table);
        assertTrue(table.lines().anyMatch(line -> line.contains("conductor-service") && line.contains("5.00") && line.contains("1.00")), table);
    }

    @Test
    void aLiveJvmsCompilerThreadsAreFound() {
        // this JVM has compiled its test framework by now: its C1 and C2 threads have run
        assertTrue(Benchmark.compilerTicks(ProcessHandle.current().pid()) > 0);
        assertEquals(0, Benchmark.compilerTicks(Long.MAX_VALUE), "no such process");
    }
}
