package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.infra.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which class-data archive a service JVM is started with: written at exit when there is none, used once it is
 * complete (its writer has exited), never used by a JVM whose flags differ from its writer's (a JDK 25 JVM refuses
 * to start on an AOT cache it cannot map), never when its writer left it empty, and never after a rebuild.
 */
class AppCdsTest {

    private static final List<String> FLAGS = List.of("-Xmx256m", "-XX:+UseSerialGC");

    @TempDir
    Path dir;
    private Path jar;

    @BeforeEach
    void buildJar() throws IOException {
        jar = Files.writeString(dir.resolve("quarkus-run.jar"), "jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
    }

    @Test
    void aJvmWithoutAnArchiveWritesOneAtExitAndTheNextUsesIt() throws IOException {
        Path written = writtenBy(AppCds.options(jar, FLAGS));
        assertEquals(dir, written.getParent());

        settle(Files.writeString(written, "archive"));
        assertEquals(List.of(useFlag(written)), AppCds.options(jar, FLAGS));
    }

    @Test
    void anArchiveBeingWrittenIsNotUsedUntilItsWriterHasExited() throws Exception {
        List<String> options = AppCds.options(jar, FLAGS);
        Path written = Files.writeString(writtenBy(options), "half an archive"); // modified just now
        // A live process whose command line carries the writer's flag, as the JVM writing it at its exit does.
        Process writer = new ProcessBuilder("sh", "-c", "sleep 60; :", options.get(0)).start();
        try {
            writtenBy(AppCds.options(jar, FLAGS));
        } finally {
            writer.destroy();
            writer.waitFor();
        }
        assertEquals(List.of(useFlag(written)), AppCds.options(jar, FLAGS), "complete once its writer has exited");
    }

    @Test
    void anArchiveLeftEmptyIsRemovedAndWrittenAgain() throws IOException {
        Path empty = settle(Files.writeString(writtenBy(AppCds.options(jar, FLAGS)), ""));

        Path again = writtenBy(AppCds.options(jar, FLAGS));
        assertNotEquals(empty, again);
        assertFalse(Files.exists(empty));
    }

    @Test
    void otherFlagsNeverMapAnotherJvmsArchive() throws IOException {
        Path archive = settle(Files.writeString(writtenBy(AppCds.options(jar, FLAGS)), "archive"));

        List<String> otherHeap = List.of("-Xmx512m", "-XX:+UseSerialGC");
        Path second = writtenBy(AppCds.options(jar, otherHeap));
        assertNotEquals(archive, second);
        assertTrue(Files.exists(archive), "still the archive of the first flags");
        settle(Files.writeString(second, "archive"));
        assertEquals(List.of(useFlag(second)), AppCds.options(jar, otherHeap));
        assertEquals(List.of(useFlag(archive)), AppCds.options(jar, FLAGS));
    }

    @Test
    void aRebuildMakesEveryArchiveStaleAndLeftoversAreRemoved() throws IOException {
        Path archive = settle(Files.writeString(writtenBy(AppCds.options(jar, FLAGS)), "archive"));
        Path leftover = settle(Files.writeString(dir.resolve(archive.getFileName() + ".config"), "AOT configuration"));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now()));

        writtenBy(AppCds.options(jar, FLAGS));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(jar), files.toList());
        }
        assertFalse(Files.exists(leftover));
    }

    @Test
    void onlyTheNewestSettledArchiveIsKept() throws IOException {
        Path older = Files.writeString(writtenBy(AppCds.options(jar, FLAGS)), "archive");
        // Two JVMs started without an archive, as two stacks' may be, each wrote one of its own name.
        Path newer = Files.writeString(older.resolveSibling(older.getFileName().toString()
                .replaceFirst("[0-9a-f-]{36}", UUID.randomUUID().toString())), "archive");
        Files.setLastModifiedTime(older, FileTime.from(Instant.now().minus(Duration.ofMinutes(20))));
        Files.setLastModifiedTime(newer, FileTime.from(Instant.now().minus(Duration.ofMinutes(10))));

        assertEquals(List.of(useFlag(newer)), AppCds.options(jar, FLAGS));
        assertFalse(Files.exists(older));
    }

    private static Path writtenBy(List<String> options) {
        assertEquals(1, options.size(), options.toString());
        assertTrue(ChildJvm.writesArchiveAtExit(options.get(0)), options.get(0));
        return Path.of(options.get(0).substring(options.get(0).indexOf('=') + 1));
    }

    private static String useFlag(Path archive) {
        return (Runtime.version().feature() >= 25 ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + archive;
    }

    private static Path settle(Path file) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofMinutes(5))));
        return file;
    }
}
