package io.ironflow.intents;

import io.ironflow.events.*;
import io.ironflow.policy.*;
import java.lang.management.*;
import java.nio.file.*;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.*;
import java.util.*;

/**
 * Prints what an intent signature costs: CPU-ms per intent to sign (the sender) and to verify (the conductor), a JSON
 * line per round of 2,000 intents; the first round is the cold one. Run:
 * {@code ./mvnw -q -pl schemas test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=io.ironflow.intents.IntentSignatureBenchmark}
 */
public class IntentSignatureBenchmark {
    public static void main(String[] a) throws Exception {
        Path dir = Files.createTempDirectory("kb");
        IntentKeys.Pair p = IntentKeys.generate("api-1", new KeyBinding(Set.of("*"), Set.of("*"), Set.of("*"), true));
        Path key = dir.resolve("k.jwk"); Files.writeString(key, p.privateJwk());
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        Path trusted = dir.resolve("t.jwks"); Files.writeString(trusted, IntentKeys.trustedKeysFile(List.of(p.trustedPublicJwk())));
        IntentSigner signer = new IntentSigner(key);
        IntentVerifier verifier = new IntentVerifier(trusted, Duration.ofSeconds(30), Duration.ofHours(24));
        Principal who = new Principal("admin", null, Set.of("admin"), true);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 4; round++) {
            int n = 2000;
            long signCpu = 0, verifyCpu = 0;
            for (int i = 0; i < n; i++) {
                NodeIntent intent = NodeIntent.newBuilder().setIntentId(UUID.randomUUID().toString()).setNodeUuid(UUID.randomUUID().toString())
                    .setRequester("admin").setPrincipal(IntentRules.toAvro(who)).setRequestedAt(Instant.now())
                    .setNotAfter(Instant.now().plusSeconds(10))
                    .setCommand(new ProvisionAction("manage", null, null, null, null)).build();
                long t0 = mx.getCurrentThreadCpuTime();
                signer.sign(intent);
                long t1 = mx.getCurrentThreadCpuTime();
                verifier.verify(intent);
                long t2 = mx.getCurrentThreadCpuTime();
                signCpu += t1 - t0; verifyCpu += t2 - t1;
            }
            System.out.printf("{\"round\":%d,\"intents\":%d,\"sign_cpu_ms_per_intent\":%.4f,\"verify_cpu_ms_per_intent\":%.4f}%n",
                round, n, signCpu / 1e6 / n, verifyCpu / 1e6 / n);
        }
    }
}
