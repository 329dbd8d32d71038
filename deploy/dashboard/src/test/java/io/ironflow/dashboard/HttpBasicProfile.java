package io.ironflow.dashboard;

import io.ironflow.auth.HtpasswdHash;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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


    private static Path files() {
        try {
            Path dir = Files.createTempDirectory("ironflow-dashboard-htpasswd");
            dir.toFile().deleteOnExit();
            Files.writeString(dir.resolve("htpasswd"), "admin:" + HtpasswdHash.bcrypt("admin-secret", 5) + "\n"
                    + "reader:" + HtpasswdHash.bcrypt("reader-secret", 5) + "\n"
                    + "member:" + HtpasswdHash.bcrypt("member-secret", 5) + "\n");
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
