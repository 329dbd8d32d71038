package io.ironflow.auth;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.spec.EncryptablePasswordSpec;
import org.wildfly.security.password.spec.IteratedSaltedPasswordAlgorithmSpec;
import org.wildfly.security.password.util.ModularCrypt;

/**
 * The writing side of {@code http_basic}'s user file: a {@code $2y$} bcrypt hash with a random salt, as
 * {@code htpasswd -B -C cost} writes it, for whoever makes such a file (tests; the launcher, which does not load
 * this module, keeps its own few lines). {@link Htpasswd} reads what this writes.
 */
public final class HtpasswdHash {

    /** Apache htpasswd's default bcrypt cost. */
    public static final int DEFAULT_COST = 10;

    private HtpasswdHash() {
    }

    /** {@code password}'s entry hash at {@code cost} (4-31; tests use a low one to stay fast). */
    public static String bcrypt(String password, int cost) {
        byte[] salt = new byte[BCryptPassword.BCRYPT_SALT_SIZE];
        new SecureRandom().nextBytes(salt);
        try {
            PasswordFactory factory = PasswordFactory.getInstance(BCryptPassword.ALGORITHM_BCRYPT,
                    WildFlyElytronPasswordProvider.getInstance());
            BCryptPassword hash = (BCryptPassword) factory.generatePassword(new EncryptablePasswordSpec(
                    password.toCharArray(), new IteratedSaltedPasswordAlgorithmSpec(cost, salt)));
            // Elytron writes the $2a$ prefix; htpasswd -B writes $2y$, the same algorithm.
            return "$2y$" + ModularCrypt.encodeAsString(hash).substring(4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("bcrypt is not available: " + e.getMessage(), e);
        }
    }
}
