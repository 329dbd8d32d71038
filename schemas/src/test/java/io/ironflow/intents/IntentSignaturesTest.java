package io.ironflow.intents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.events.DeleteNode;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.UpdateNode;
import io.ironflow.events.ValidateNode;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The attacks on the intent trust boundary, played against the signer and the verifier directly. */
class IntentSignaturesTest {

    private static final KeyBinding API = new KeyBinding(Set.of("*"), Set.of("*"), Set.of("*"), true);
    private static final Principal ADMIN = new Principal("admin", null, Set.of("admin"), true);
    private static final Duration SKEW = Duration.ofSeconds(30);
    private static final Duration MAX = Duration.ofHours(24);

    @TempDir
    Path dir;

    @Test
    void aSignedIntentActsForItsSignedPrincipal() throws IOException {
        IntentKeys.Pair api = IntentKeys.generate("api-1", API);
        IntentVerifier verifier = verifier(api);
        NodeIntent intent = signer("api", api).sign(intent(ADMIN, new DeleteNode()), inAMinute());
        assertEquals(ADMIN, verifier.verify(intent));
    }

    @Test
    void unsignedForgedAndTamperedIntentsAreRefusedWithTheirReason() throws IOException {
        IntentKeys.Pair api = IntentKeys.generate("api-1", API);
        IntentKeys.Pair attacker = IntentKeys.generate("api-1", API); // the same kid, another key
        IntentVerifier verifier = verifier(api);
        IntentSigner signer = signer("api", api);

        assertRefused(verifier, intent(ADMIN, new DeleteNode()), "not signed");
        assertRefused(verifier, signer("attacker", attacker).sign(intent(ADMIN, new DeleteNode()), inAMinute()), "does not verify");
        assertRefused(verifier, signer("unknown", IntentKeys.generate("who-1", API)).sign(intent(ADMIN, new DeleteNode()), inAMinute()),
                "key who-1 is not trusted");

        NodeIntent validate = signer.sign(intent(ADMIN, new ValidateNode()), inAMinute());
        NodeIntent delete = NodeIntent.newBuilder(validate).setCommand(new DeleteNode()).build();
        assertRefused(verifier, delete, "another command");
        NodeIntent otherNode = NodeIntent.newBuilder(validate).setNodeUuid(UUID.randomUUID().toString()).build();
        assertRefused(verifier, otherNode, "another node");
        NodeIntent otherId = NodeIntent.newBuilder(validate).setIntentId(UUID.randomUUID().toString()).build();
        assertRefused(verifier, otherId, "another intent");

        Principal member = new Principal("alice", "p1", Set.of("member"), false);
        NodeIntent asMember = signer.sign(intent(member, new UpdateNode("[]")), inAMinute());
        NodeIntent promoted = NodeIntent.newBuilder(asMember).setPrincipal(IntentRules.toAvro(ADMIN)).build();
        assertRefused(verifier, promoted, "another principal");

        assertRefused(verifier, signer.sign(intent(ADMIN, new DeleteNode()), Instant.now().minusSeconds(120)), "expired");
        assertRefused(verifier, signer.sign(intent(ADMIN, new DeleteNode()), Instant.now().plus(Duration.ofDays(30))),
                "too long");
        assertRefused(verifier, NodeIntent.newBuilder(intent(ADMIN, new DeleteNode())).setSignature("not.a.jws").build(), "");
    }

    @Test
    void aKeyCarriesOnlyThePrincipalsItIsBoundTo() throws IOException {
        IntentKeys.Pair api = IntentKeys.generate("api-1", API);
        IntentKeys.Pair tenant = IntentKeys.generate("tenant-1", new KeyBinding(Set.of("*"), Set.of("member", "reader"), Set.of("p1"), false));
        IntentKeys.Pair allocator = IntentKeys.generate("allocator-1",
                new KeyBinding(Set.of("oneview-allocator"), Set.of("service"), Set.of(), true));
        IntentVerifier verifier = verifier(api, tenant, allocator);
        IntentSigner tenantSigner = signer("tenant", tenant);

        Principal member = new Principal("alice", "p1", Set.of("member"), false);
        assertEquals(member, verifier.verify(tenantSigner.sign(intent(member, new DeleteNode()), inAMinute())));
        assertRefused(verifier, tenantSigner.sign(intent(ADMIN, new DeleteNode()), inAMinute()), "roles");
        assertRefused(verifier, tenantSigner.sign(intent(new Principal("alice", "p2", Set.of("member"), false), new DeleteNode()),
                inAMinute()), "project p2");
        assertRefused(verifier, tenantSigner.sign(intent(new Principal("alice", null, Set.of("reader"), true), new DeleteNode()),
                inAMinute()), "system scope");

        Principal service = Principal.service("oneview-allocator");
        assertRefused(verifier, signer("api", api).sign(intent(service, new DeleteNode()), inAMinute()), "user oneview-allocator");
        assertEquals(service, verifier.verify(signer("allocator", allocator).sign(intent(service, new DeleteNode()), inAMinute())));
        assertRefused(verifier, signer("allocator", allocator).sign(intent(Principal.service("teardown-orchestrator"), new DeleteNode()),
                inAMinute()), "user teardown-orchestrator");
    }

    @Test
    void keysRotateWithoutARestartTwoValidDuringTheSwitch() throws Exception {
        IntentKeys.Pair old = IntentKeys.generate("api-1", API);
        IntentKeys.Pair next = IntentKeys.generate("api-2", API);
        Path trusted = dir.resolve("trusted.jwks");
        Files.writeString(trusted, IntentKeys.trustedKeysFile(List.of(old.trustedPublicJwk())));
        IntentVerifier verifier = new IntentVerifier(trusted, SKEW, MAX, Duration.ZERO);
        Path signingKey = keyFile("api", old);
        IntentSigner signer = new IntentSigner(signingKey, Duration.ofMinutes(1), Duration.ZERO);
        NodeIntent byOld = signer.sign(intent(ADMIN, new DeleteNode()), inAMinute());
        assertEquals(ADMIN, verifier.verify(byOld));

        rewrite(trusted, IntentKeys.trustedKeysFile(List.of(old.trustedPublicJwk(), next.trustedPublicJwk())));
        rewrite(signingKey, next.privateJwk());
        NodeIntent byNext = signer.sign(intent(ADMIN, new DeleteNode()), inAMinute());
        assertEquals(ADMIN, verifier.verify(byNext));
        assertEquals(ADMIN, verifier.verify(byOld), "both keys are valid during the switch");

        rewrite(trusted, IntentKeys.trustedKeysFile(List.of(next.trustedPublicJwk())));
        assertRefused(verifier, byOld, "key api-1 is not trusted");
        rewrite(trusted, "{not json");
        assertEquals(ADMIN, verifier.verify(byNext), "a broken file keeps the keys read before");
    }

    @Test
    void aSigningKeyOthersMayReadIsRefused() throws IOException {
        Path key = keyFile("loose", IntentKeys.generate("k", API));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new IntentSigner(key));
        assertTrue(refused.getMessage().contains("chmod 600"), refused.getMessage());
    }

    @Test
    void theTrustedKeysFileHoldsPublicKeysOnly() throws IOException {
        IntentKeys.Pair api = IntentKeys.generate("api-1", API);
        Path trusted = dir.resolve("private.jwks");
        Files.writeString(trusted, "{\"keys\":[" + api.privateJwk() + "]}");
        assertThrows(IllegalArgumentException.class, () -> new IntentVerifier(trusted, SKEW, MAX));
    }

    private static void rewrite(Path file, String content) throws Exception {
        Thread.sleep(20); // a new modification time on file systems that keep milliseconds
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(next, content);
        Files.setPosixFilePermissions(next, PosixFilePermissions.fromString("rw-------"));
        Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + (long) (Math.random() * 100_000)));
    }

    private static void assertRefused(IntentVerifier verifier, NodeIntent intent, String reason) {
        UntrustedIntent refused = assertThrows(UntrustedIntent.class, () -> verifier.verify(intent));
        assertTrue(refused.getMessage().contains(reason), refused.getMessage());
    }

    private IntentVerifier verifier(IntentKeys.Pair... trusted) throws IOException {
        Path file = dir.resolve("trusted-" + UUID.randomUUID() + ".jwks");
        Files.writeString(file, IntentKeys.trustedKeysFile(java.util.Arrays.stream(trusted).map(IntentKeys.Pair::trustedPublicJwk).toList()));
        return new IntentVerifier(file, SKEW, MAX);
    }

    private IntentSigner signer(String name, IntentKeys.Pair pair) throws IOException {
        return new IntentSigner(keyFile(name, pair));
    }

    private Path keyFile(String name, IntentKeys.Pair pair) throws IOException {
        Path file = dir.resolve(name + "-" + UUID.randomUUID() + ".jwk");
        Files.writeString(file, pair.privateJwk());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static Instant inAMinute() {
        return Instant.now().plusSeconds(60);
    }

    private static NodeIntent intent(Principal who, Object command) {
        return NodeIntent.newBuilder().setIntentId(UUID.randomUUID().toString()).setNodeUuid(UUID.randomUUID().toString())
                .setRequester(who.user()).setPrincipal(IntentRules.toAvro(who)).setRequestedAt(Instant.now())
                .setCommand(command).build();
    }
}
