package io.ironflow.intents;

import java.security.Security;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.jose4j.jca.ProviderContext;

/**
 * Where intent signatures are computed: BouncyCastle's Ed25519, about seven times cheaper than the JDK's own
 * (SunEC, pure BigInteger-free Java but slow: ~0.7 CPU-ms to sign and ~0.8 to verify on these machines, against
 * ~0.08 and ~0.13), and every intent pays it twice, in its sender and in the conductor (docs/performance.md). The
 * provider is added last, so nothing else in the process (TLS, the JWT of HTTP authentication) changes providers;
 * only the signatures jose4j is told to make with it use it. RSA keys stay on the JDK's own, which is as fast.
 */
final class SignatureProvider {

    private static final String NAME = BouncyCastleProvider.PROVIDER_NAME;

    static {
        if (Security.getProvider(NAME) == null) {
            Security.addProvider(new BouncyCastleProvider());
        }
    }

    private SignatureProvider() {
    }

    /** jose4j's context for EdDSA: signatures by BouncyCastle, keys as they are. */
    static ProviderContext forEdDsa() {
        ProviderContext context = new ProviderContext();
        context.getSuppliedKeyProviderContext().setSignatureProvider(NAME);
        context.getGeneralProviderContext().setSignatureProvider(NAME);
        return context;
    }
}
