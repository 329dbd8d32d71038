package io.ironflow.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.spec.EncryptablePasswordSpec;
import org.wildfly.security.password.spec.IteratedSaltedPasswordAlgorithmSpec;
import org.wildfly.security.password.util.ModularCrypt;

/**
 * The API with {@code ironflow.auth.strategy=http_basic}: an htpasswd file as {@code htpasswd -B} writes it
 * ({@code $2y$} bcrypt entries, one of them OpenBSD's published test vector) and the YAML file of roles and
 * projects beside it.
 */
public class HttpBasicAuthProfile implements QuarkusTestProfile {

    private static final Path DIR = files();

    @Override
    public Map<String, String> getConfigOverrides() {
        // A refusal is decided before anything is sent; what is allowed waits for the fake conductor, on a busy machine.
        return Map.of("ironflow.api.intent-timeout", "30s",
                "ironflow.auth.strategy", "http_basic",
                "ironflow.auth.http-basic.user-file", DIR.resolve("htpasswd").toString(),
                "ironflow.auth.http-basic.roles-file", DIR.resolve("roles.yaml").toString());
    }

    /** A {@code htpasswd -B} entry's hash for {@code password}, made with a random salt. */
    static String bcrypt(String password) {
        try {
            byte[] salt = new byte[16];
            new SecureRandom().nextBytes(salt);
            PasswordFactory factory = PasswordFactory.getInstance(BCryptPassword.ALGORITHM_BCRYPT,
                    WildFlyElytronPasswordProvider.getInstance());
            var hash = factory.generatePassword(new EncryptablePasswordSpec(password.toCharArray(),
                    new IteratedSaltedPasswordAlgorithmSpec(5, salt)));
            return "$2y$" + ModularCrypt.encodeAsString(hash).substring(4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path files() {
        try {
            Path dir = Files.createTempDirectory("ironflow-htpasswd");
            dir.toFile().deleteOnExit();
            Files.writeString(dir.resolve("htpasswd"), "# htpasswd -B\n"
                    + "admin:" + bcrypt("admin-secret") + "\n"
                    + "reader:" + bcrypt("reader-secret") + "\n"
                    + "member:" + bcrypt("member-secret") + "\n"
                    // OpenBSD's bcrypt test vector for the password U*U, as htpasswd -B would label it
                    + "vector:$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW\n"
                    + "norole:" + bcrypt("norole-secret") + "\n");
            Files.writeString(dir.resolve("roles.yaml"), """
                    admin: {roles: [admin], system: true}
                    reader: {roles: [reader], system: true}
                    member: {roles: [member], project: owner-project}
                    vector: {roles: [reader], system: true}
                    """);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
