package io.ironflow.conductor.intents;

import io.ironflow.policy.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The policy the conductor's field checks decide with (what a command writes, beyond the rule per command that
 * {@link IntentAuthorization} checks): io.ironflow.policy's table, overridden by the operator's policy file
 * ({@code ironflow.policy.file}), loaded once, as IntentAuthorization loads it.
 */
@ApplicationScoped
class ConductorPolicy {

    private final Policy policy;

    ConductorPolicy(@ConfigProperty(name = "ironflow.policy.file") Optional<Path> file) {
        this.policy = file.map(Policy::load).orElseGet(Policy::defaults);
    }

    Policy policy() {
        return policy;
    }
}
