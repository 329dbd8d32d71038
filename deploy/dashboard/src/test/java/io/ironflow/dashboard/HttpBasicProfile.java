package io.ironflow.dashboard;

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
 * The dashboard with {@code ironflow.auth.strategy=http_basic}: an htpasswd file as {@code htpasswd -B} writes it
 * and the YAML of roles and projects beside it, with a system reader, a system admin and a project member.
 */
public class HttpBasicProfile implements QuarkusTestProfile {

    private static final Path DIR = files();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("ironflow.auth.strategy", "http_basic",
                "ironflow.auth.http-basic.user-file", DIR.resolve("htpasswd").toString(),
                "ironflow.auth.http-basic.roles-file", DIR.resolve("roles.yaml").toString());
    }

    private static String bcrypt(String password) {
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
            Path dir = Files.createTempDirectory("ironflow-dashboard-htpasswd");
            dir.toFile().deleteOnExit();
            Files.writeString(dir.resolve("htpasswd"), "admin:" + bcrypt("admin-secret") + "\n"
                    + "reader:" + bcrypt("reader-secret") + "\n"
                    + "member:" + bcrypt("member-secret") + "\n");
            Files.writeString(dir.resolve("roles.yaml"), """
                    admin: {roles: [admin], system: true}
                    reader: {roles: [reader], system: true}
                    member: {roles: [member, reader], project: owner-project}
                    """);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
