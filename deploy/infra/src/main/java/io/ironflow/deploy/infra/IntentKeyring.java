package io.ironflow.deploy.infra;

import io.ironflow.intents.IntentKeys;
import io.ironflow.intents.KeyBinding;
import io.ironflow.policy.Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jose4j.json.JsonUtil;
import org.jose4j.lang.JoseException;

/**
 * The intent-signing keys of one data directory: each sender's private key ({@code <sender>.jwk}, 0600, handed to
 * that sender only) and the conductors' trusted-keys file ({@code trusted-keys.jwks}, public keys with the
 * {@link KeyBinding} of each). A sender's key is made at its first start and kept, so restarts keep trusting it;
 * a key added later is trusted by running conductors without a restart (they read the file again).
 */
public final class IntentKeyring {

    public static final String TRUSTED = "trusted-keys.jwks";

    /** The API speaks for every caller it authenticated, and never for Ironflow's own services. */
    public static final KeyBinding API = new KeyBinding(Set.of("*"), Set.of("*"), Set.of("*"), true);

    private final Path dir;

    private IntentKeyring(Path dir) {
        this.dir = dir;
    }

    /** The keyring in {@code dir}, made with an empty trusted-keys file if it is new. */
    public static IntentKeyring at(Path dir) {
        try {
            Files.createDirectories(dir);
            IntentKeyring keyring = new IntentKeyring(dir);
            if (!Files.exists(keyring.trustedKeys())) {
                keyring.writeTrusted(List.of());
            }
            return keyring;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What one of Ironflow's own services may sign for: itself, with the service role and system scope. */
    public static KeyBinding service(String name) {
        return new KeyBinding(Set.of(name), Set.of("service"), Set.of(), true);
    }

    /** A test harness's binding: anybody, Ironflow's services included. Never in a stack an operator runs. */
    public static KeyBinding anybody() {
        List<String> users = new ArrayList<>(Principal.SERVICES);
        users.add("*");
        return new KeyBinding(Set.copyOf(users), Set.of("*"), Set.of("*"), true);
    }

    /**
     * The configuration of a test harness that starts services itself: the conductor trusts this keyring, every
     * sender signs with the harness's {@link #anybody} key, {@code tests.jwk}, which the harness's own client uses too.
     */
    public Map<String, String> testServiceConfig() {
        return Map.of("ironflow.intents.trusted-keys", trustedKeys().toString(),
                "ironflow.intents.signing-key", signingKey("tests", anybody()).toString());
    }

    public Path trustedKeys() {
        return dir.resolve(TRUSTED);
    }

    /**
     * {@code sender}'s private key file, made and trusted with {@code binding} when it has none yet; an existing
     * key keeps the binding it was trusted with.
     */
    public synchronized Path signingKey(String sender, KeyBinding binding) {
        if (!sender.matches("[a-z0-9][a-z0-9-]{0,62}")) {
            throw new IllegalArgumentException("a sender's name is lower-case letters, digits and '-': " + sender);
        }
        Path key = dir.resolve(sender + ".jwk");
        if (Files.exists(key)) {
            return key;
        }
        IntentKeys.Pair pair = IntentKeys.generate(sender + "-" + UUID.randomUUID().toString().substring(0, 8), binding);
        try {
            List<Map<String, Object>> trusted = new ArrayList<>(readTrusted());
            trusted.add(pair.trustedPublicJwk());
            writeTrusted(trusted); // trusted first: the key is never in use before a conductor can know it
            SecretFile.writeOwnerOnly(key, pair.privateJwk());
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> readTrusted() throws IOException {
        try {
            Object keys = JsonUtil.parseJson(Files.readString(trustedKeys())).get("keys");
            return keys == null ? List.of() : (List<Map<String, Object>>) keys;
        } catch (JoseException e) {
            throw new IOException(trustedKeys() + " is not a JWK Set: " + e.getMessage(), e);
        }
    }

    /** Written whole and renamed into place ({@link SecretFile#writeOwnerOnly}): a reader never sees half a file. */
    private void writeTrusted(List<Map<String, Object>> keys) throws IOException {
        SecretFile.writeOwnerOnly(trustedKeys(), IntentKeys.trustedKeysFile(keys));
    }
}
