package io.ironflow.teardown.ironflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A renewed token file is read again; a file gone after a first read keeps the last token. */
class TokenFileTest {

    @TempDir
    Path dir;

    @Test
    void theNewestTokenIsSentAfterTheFileIsRenewed() throws Exception {
        Path file = dir.resolve("service.token");
        Files.writeString(file, "first\n");
        TokenFile token = new TokenFile(file);
        assertEquals("first", token.token());
        Files.writeString(file, "second");
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 60_000));
        assertEquals("second", token.token());
        Files.delete(file);
        assertEquals("second", token.token(), "a file being replaced keeps the token read before");
    }

    @Test
    void noTokenAtAllIsAFailureThatSaysWhere() {
        IllegalStateException missing = assertThrows(IllegalStateException.class, () -> new TokenFile(dir.resolve("none")).token());
        assertEquals(true, missing.getMessage().contains("none"));
    }
}
