package io.ironflow.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** {@code ironflow.auth.*}: the strategy and what each strategy reads; {@code ironflow.policy.file} is the policy. */
@ConfigMapping(prefix = "ironflow.auth")
public interface AuthConfig {

    @WithDefault("noauth")
    AuthStrategy strategy();

    HttpBasic httpBasic();

    Jwt jwt();

    /**
     * Ironic's {@code http_basic_auth_user_file}, the YAML naming each user's roles and project, and what keeps
     * bcrypt from being a denial of service: the threads it runs on, how long a verified password is remembered,
     * and how many failed logins a client address or a user name may have in a window.
     */
    interface HttpBasic {
        Optional<Path> userFile();

        Optional<Path> rolesFile();

        /** The worker threads bcrypt runs on (never the event loop); more logins wait for them. */
        @WithDefault("2")
        int verifyThreads();

        /** Logins waiting for a bcrypt thread beyond which new ones are answered 429 at once. */
        @WithDefault("64")
        int maxWaiting();

        /** How long a verified user and password are remembered (by their SHA-256, never in clear). */
        @WithDefault("60s")
        Duration cacheTtl();

        @WithDefault("10000")
        int cacheSize();

        /** Failed (or pending) logins one client address may have in {@link #failureWindow}; then 429. */
        @WithDefault("20")
        int failuresPerClient();

        /** Failed (or pending) logins one user name may have in {@link #failureWindow}; then 429. */
        @WithDefault("10")
        int failuresPerUser();

        @WithDefault("60s")
        Duration failureWindow();
    }

    /**
     * Where the issuer's key is (https or a file), which issuer and audience to accept (both required), how much
     * clock skew to forgive, and which claims say who the caller is.
     */
    interface Jwt {
        Optional<String> publicKeyLocation();

        Optional<String> issuer();

        /** The {@code aud} a token must name: this deployment's API, so a token minted for another service is refused. */
        Optional<String> audience();

        /** How far the issuer's clock may be from this one (expiry, not-before); at most {@link JwtSettings#MAX_CLOCK_SKEW}. */
        @WithDefault("60s")
        Duration clockSkew();

        @WithDefault("sub")
        String userClaim();

        @WithDefault("roles")
        String rolesClaim();

        @WithDefault("project_id")
        String projectClaim();

        @WithDefault("system_scope")
        String systemScopeClaim();
    }
}
