package io.ironflow.auth;

import io.ironflow.policy.Principal;

/** One authentication strategy: the principal a request's credentials prove, or {@link Unauthenticated}. */
public interface Authenticator {

    /**
     * @param authorization the {@code Authorization} header, or null
     * @param authToken the {@code X-Auth-Token} header, or null
     */
    Principal authenticate(String authorization, String authToken) throws Unauthenticated;

    /** The {@code WWW-Authenticate} challenge a 401 carries. */
    String challenge();
}
