package io.ironflow.auth;

import java.time.Duration;
import java.util.Locale;

/**
 * What {@code ironflow.auth.strategy=jwt} refuses to start with, each as one line: no key location, a key fetched
 * over plain http (anyone on the path could swap the key and mint tokens), no issuer or no audience (a token any
 * issuer signed with a trusted key, or one minted for another service, would be accepted), and a clock skew that
 * is negative or longer than {@link #MAX_CLOCK_SKEW} (an expired token would live on).
 */
final class JwtSettings {

    /** The largest clock skew forgiven: a token lives at most this long past its expiry. */
    static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);

    private JwtSettings() {
    }

    /** Why {@code config} may not be used, or null. */
    static String refusal(AuthConfig.Jwt config) {
        String key = config.publicKeyLocation().map(String::trim).orElse("");
        if (key.isEmpty()) {
            return "ironflow.auth.strategy=jwt needs ironflow.auth.jwt.public-key-location (a PEM key or JWKS: a file or an https URL)";
        }
        if (!keyLocationAllowed(key)) {
            return "ironflow.auth.jwt.public-key-location=" + key + " is refused: keys are read from a file or over https only";
        }
        if (config.issuer().map(String::isBlank).orElse(true)) {
            return "ironflow.auth.strategy=jwt needs ironflow.auth.jwt.issuer (the iss every token must carry)";
        }
        if (config.audience().map(String::isBlank).orElse(true)) {
            return "ironflow.auth.strategy=jwt needs ironflow.auth.jwt.audience (the aud every token must carry)";
        }
        Duration skew = config.clockSkew();
        if (skew.isNegative() || skew.compareTo(MAX_CLOCK_SKEW) > 0) {
            return "ironflow.auth.jwt.clock-skew=" + skew + " is refused: it must be between 0 and " + MAX_CLOCK_SKEW;
        }
        return null;
    }

    /** A file (a path, or a file: URL) or an https URL; classpath: resources are files shipped with the service. */
    static boolean keyLocationAllowed(String location) {
        String lower = location.toLowerCase(Locale.ROOT);
        int colon = lower.indexOf(':');
        boolean scheme = colon > 1 && lower.substring(0, colon).matches("[a-z][a-z0-9+.-]*");
        return !scheme || lower.startsWith("https:") || lower.startsWith("file:") || lower.startsWith("classpath:");
    }
}
