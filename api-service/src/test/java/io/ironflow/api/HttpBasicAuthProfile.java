package io.ironflow.api;

import io.ironflow.auth.HtpasswdHash;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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


    private static Path files() {
        try {
            Path dir = Files.createTempDirectory("ironflow-htpasswd");
            dir.toFile().deleteOnExit();
            Files.writeString(dir.resolve("htpasswd"), "# htpasswd -B\n"
                    + "admin:" + HtpasswdHash.bcrypt("admin-secret", 5) + "\n"
                    + "reader:" + HtpasswdHash.bcrypt("reader-secret", 5) + "\n"
                    + "member:" + HtpasswdHash.bcrypt("member-secret", 5) + "\n"
                    // OpenBSD's bcrypt test vector for the password U*U, as htpasswd -B would label it
                    + "vector:$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW\n"
                    + "norole:" + HtpasswdHash.bcrypt("norole-secret", 5) + "\n");
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
