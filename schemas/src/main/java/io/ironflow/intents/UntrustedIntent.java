package io.ironflow.intents;

/**
 * An intent the conductor may not believe: unsigned, signed by a key it does not trust or beyond the key's rights,
 * tampered with, or expired. Its message is the reason, safe to log: it names keys and claims, never a signature.
 */
public class UntrustedIntent extends RuntimeException {

    public UntrustedIntent(String reason) {
        super(reason, null, false, false);
    }
}
