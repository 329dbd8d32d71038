package io.ironflow.auth;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A user name and password as an {@code Authorization: Basic} header carries them (RFC 7617). */
record BasicCredentials(String user, String password) {

    /** The credentials of {@code authorization}; refused when it is absent, not Basic, not base64 or has no colon. */
    static BasicCredentials parse(String authorization) throws Unauthenticated {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            throw new Unauthenticated("Authorization: Basic credentials are required");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new Unauthenticated("The Basic credentials are not base64");
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            throw new Unauthenticated("The Basic credentials have no password");
        }
        return new BasicCredentials(decoded.substring(0, colon), decoded.substring(colon + 1));
    }

    /** Never the password: records print their components. */
    @Override
    public String toString() {
        return "BasicCredentials[user=" + user + "]";
    }
}
