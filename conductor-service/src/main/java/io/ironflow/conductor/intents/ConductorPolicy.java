package io.ironflow.conductor.intents;

import io.ironflow.policy.Policy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one policy the conductor decides with, the rule per command ({@link IntentAuthorization}) and the field checks
 * alike: io.ironflow.policy's table, overridden by the operator's policy file ({@code ironflow.policy.file}), loaded
 * once.
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
