package io.ironflow.deploy.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Application class-data sharing for the JVMs the launcher starts (JDK 17's dynamic archives): a service
 * started without an archive writes one when it exits (stopping the stack, Ctrl-C), holding every class it
 * loaded; the next start maps those classes instead of loading, verifying and parsing them again, which shortens
 * start-up and the first requests. The archive lives beside the service's jar ({@code target/quarkus-app}), so a
 * fresh data directory still uses it, and one older than the jar (a rebuild) is not used. Each writer writes a
 * file of its own name (two stacks may stop at once); the newest complete one is used, the others removed. A
 * JVM that cannot map an archive runs without it (-Xshare:auto, the default). {@code IRONFLOW_APPCDS=off}
 * turns it off.
 */
final class AppCds {

    private static final String PREFIX = "ironflow-appcds.";
    private static final String SUFFIX = ".jsa";
    /** A file modified this recently may still be being written by a JVM at its exit. */
    private static final Duration SETTLED = Duration.ofSeconds(30);

    private AppCds() {
    }

    /** The JVM flag for {@code jar}: use its archive if there is a current one, else write one at exit. */
    static List<String> options(Path jar) {
        if ("off".equalsIgnoreCase(System.getenv("IRONFLOW_APPCDS"))) {
            return List.of();
        }
        Path dir = jar.toAbsolutePath().getParent();
        try {
            FileTime built = Files.getLastModifiedTime(jar);
            Optional<Path> archive = current(dir, built);
            if (archive.isPresent()) {
                return List.of("-XX:SharedArchiveFile=" + archive.get());
            }
            return List.of("-XX:ArchiveClassesAtExit=" + dir.resolve(PREFIX + UUID.randomUUID() + SUFFIX));
        } catch (IOException e) {
            return List.of(); // no jar or an unreadable directory: start without, ChildJvm reports a missing jar
        }
    }

    /** The newest settled archive newer than the jar; removes the stale and the superseded ones. */
    private static Optional<Path> current(Path dir, FileTime built) throws IOException {
        Instant settled = Instant.now().minus(SETTLED);
        List<Path> archives;
        try (Stream<Path> files = Files.list(dir)) {
            archives = files.filter(f -> f.getFileName().toString().startsWith(PREFIX) && f.toString().endsWith(SUFFIX))
                    .sorted(Comparator.comparing(AppCds::modified).reversed()).toList();
        }
        Optional<Path> newest = archives.stream()
                .filter(f -> modified(f).compareTo(built) > 0 && modified(f).toInstant().isBefore(settled))
                .findFirst();
        for (Path archive : archives) {
            boolean stale = modified(archive).compareTo(built) <= 0;
            boolean superseded = newest.isPresent() && !archive.equals(newest.get())
                    && modified(archive).toInstant().isBefore(settled);
            if (stale || superseded) {
                Files.deleteIfExists(archive);
            }
        }
        return newest;
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
