package io.ironflow.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link HtpasswdHash} writes is what {@code htpasswd -B} writes, so {@link Htpasswd} accepts it. */
class HtpasswdHashTest {

    @TempDir
    Path dir;

    @Test
    void aWrittenEntryAuthenticatesItsPasswordOnlyAndIsSaltedEachTime() throws Exception {
        String hash = HtpasswdHash.bcrypt("s3cret:with colon", 5);
        assertTrue(hash.startsWith("$2y$05$") && hash.length() == 60, hash);
        assertNotEquals(hash, HtpasswdHash.bcrypt("s3cret:with colon", 5), "a random salt per entry");
        Files.writeString(dir.resolve("htpasswd"), "alice:" + hash + "\n");
        Files.writeString(dir.resolve("roles.yaml"), "alice: {roles: [admin], system: true}\n");
        Htpasswd users = Htpasswd.load(dir.resolve("htpasswd"), dir.resolve("roles.yaml"));

        assertEquals("alice", users.authenticate(basic("alice", "s3cret:with colon"), null).user());
        assertThrows(Unauthenticated.class, () -> users.authenticate(basic("alice", "s3cret"), null));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
