package io.ironflow.conductor.intents;

import io.ironflow.events.NodeIntent;
import io.ironflow.intents.IntentVerifier;
import io.ironflow.intents.UntrustedIntent;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The conductor believes an intent's principal only as its signature carries it: a key in
 * {@code ironflow.intents.trusted-keys} must have signed it for this intent, node and command, within the key's
 * rights and before it expired. Whatever the record says besides (its principal, its requester) is replaced by
 * the signed principal, so the policy check ({@link IntentAuthorization}) and the history decide with what was
 * signed (a requester may only qualify the signed user's name: {@code teardown-orchestrator/<action>}). An intent
 * that fails is an {@link UntrustedIntent}: it is dead-lettered with the reason, changes
 * nothing and is not answered, since nobody authenticated asked for it (docs/intents.md, docs/security.md).
 */
@ApplicationScoped
public class SignedIntents {

    private final IntentVerifier verifier;

    SignedIntents(@ConfigProperty(name = "ironflow.intents.trusted-keys") Path trustedKeys,
            @ConfigProperty(name = "ironflow.intents.clock-skew", defaultValue = "30s") Duration clockSkew,
            @ConfigProperty(name = "ironflow.intents.max-lifetime", defaultValue = "24h") Duration maxLifetime) {
        this.verifier = new IntentVerifier(trustedKeys, clockSkew, maxLifetime);
    }

    /** {@code intent}, acting for its signed principal from now on; an {@link UntrustedIntent} when it may not act. */
    public NodeIntent believe(NodeIntent intent) {
        Principal who = verifier.verify(intent);
        intent.setPrincipal(IntentRules.toAvro(who));
        if (!intent.getRequester().equals(who.user()) && !intent.getRequester().startsWith(who.user() + "/")) {
            intent.setRequester(who.user()); // a sender may qualify its own name (teardown-orchestrator/<action>), not take another's
        }
        return intent;
    }
}
