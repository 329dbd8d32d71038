package io.ironflow.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.util.Optional;

/** {@code ironflow.auth.*}: the strategy and what each strategy reads; {@code ironflow.policy.file} is the policy. */
@ConfigMapping(prefix = "ironflow.auth")
public interface AuthConfig {

    @WithDefault("noauth")
    AuthStrategy strategy();

    HttpBasic httpBasic();

    Jwt jwt();

    /** Ironic's {@code http_basic_auth_user_file}, and the YAML naming each user's roles and project. */
    interface HttpBasic {
        Optional<Path> userFile();

        Optional<Path> rolesFile();
    }

    /** Where the issuer's key is, which issuer to accept, and which claims say who the caller is. */
    interface Jwt {
        Optional<String> publicKeyLocation();

        Optional<String> issuer();

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
