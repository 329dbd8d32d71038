package io.ironflow.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.ironflow.policy.Principal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * Users and passwords bcrypt has just accepted, remembered for a short while so that a client sending the same
 * Basic credentials on every request pays bcrypt once per {@code ttl}, not per request. An entry is keyed by the
 * SHA-256 of user and password (the password itself is never kept), lives {@code ttl} from its verification
 * (so a password removed from the file stops working within {@code ttl} of a restart), and the cache holds at
 * most {@code size} entries.
 */
final class VerifiedCredentials {

    private final Cache<String, Principal> verified;

    VerifiedCredentials(Duration ttl, long size) {
        this.verified = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(size).build();
    }

    /** The principal {@code credentials} proved within the ttl, or null. */
    Principal get(BasicCredentials credentials) {
        return verified.getIfPresent(key(credentials));
    }

    void put(BasicCredentials credentials, Principal who) {
        verified.put(key(credentials), who);
    }

    /** SHA-256 over the user's length, the user and the password: no two pairs share an input. */
    static String key(BasicCredentials credentials) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] user = credentials.user().getBytes(StandardCharsets.UTF_8);
            sha.update(Integer.toString(user.length).getBytes(StandardCharsets.US_ASCII));
            sha.update((byte) ':');
            sha.update(user);
            sha.update(credentials.password().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
