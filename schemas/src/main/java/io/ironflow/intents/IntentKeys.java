package io.ironflow.intents;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jose4j.json.JsonUtil;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.OctetKeyPairJsonWebKey;
import org.jose4j.jwk.OkpJwkGenerator;
import org.jose4j.lang.JoseException;

/**
 * Makes an intent-signing key: an Ed25519 pair whose private half goes to one sender (its signing-key file) and
 * whose public half, with the {@link KeyBinding} of what it may sign for, goes into the conductors' trusted-keys
 * file. The local stack makes one per sender at its first start; an operator can use {@code ironflow intent-key}.
 */
public final class IntentKeys {

    /** A new pair: the private JWK's JSON, and the public JWK's members with its binding. */
    public record Pair(String privateJwk, Map<String, Object> trustedPublicJwk) {
    }

    private IntentKeys() {
    }

    public static Pair generate(String kid, KeyBinding binding) {
        try {
            OctetKeyPairJsonWebKey jwk = OkpJwkGenerator.generateJwk(OctetKeyPairJsonWebKey.SUBTYPE_ED25519);
            jwk.setKeyId(kid);
            jwk.setUse("sig");
            Map<String, Object> trusted = new LinkedHashMap<>(jwk.toParams(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
            trusted.putAll(binding.members());
            return new Pair(jwk.toJson(JsonWebKey.OutputControlLevel.INCLUDE_PRIVATE), trusted);
        } catch (JoseException e) {
            throw new IllegalStateException("cannot make an Ed25519 key: " + e.getMessage(), e);
        }
    }

    /** A trusted-keys file (a JWK Set) of these public keys. */
    public static String trustedKeysFile(List<Map<String, Object>> publicJwks) {
        return JsonUtil.toJson(Map.of("keys", publicJwks));
    }
}
