package io.ironflow.teardown.api;

import io.ironflow.auth.HtpasswdHash;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The orchestrator with {@code ironflow.auth.strategy=http_basic}: a system admin, a system reader and a system
 * member, from an htpasswd file and the roles file beside it.
 */
public class BasicAuthProfile implements QuarkusTestProfile {

    private static final Path DIR = files();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("ironflow.auth.strategy", "http_basic",
                "ironflow.auth.http-basic.user-file", DIR.resolve("htpasswd").toString(),
                "ironflow.auth.http-basic.roles-file", DIR.resolve("roles.yaml").toString());
    }

    private static Path files() {
        try {
            Path dir = Files.createTempDirectory("ironflow-teardown-htpasswd");
            dir.toFile().deleteOnExit();
            Files.writeString(dir.resolve("htpasswd"), "admin:" + HtpasswdHash.bcrypt("admin-secret", 5) + "\n"
                    + "reader:" + HtpasswdHash.bcrypt("reader-secret", 5) + "\n"
                    + "member:" + HtpasswdHash.bcrypt("member-secret", 5) + "\n");
            Files.writeString(dir.resolve("roles.yaml"), """
                    admin: {roles: [admin], system: true}
                    reader: {roles: [reader], system: true}
                    member: {roles: [member], system: true}
                    """);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
