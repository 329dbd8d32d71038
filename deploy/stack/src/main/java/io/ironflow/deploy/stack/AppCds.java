package io.ironflow.deploy.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Application class-data sharing for the JVMs the launcher starts: a service started without an archive writes
 * one when it exits (stopping the stack, Ctrl-C), holding every class it loaded; the next start maps those
 * classes instead of loading, verifying and parsing them again, which shortens start-up and the first requests.
 * On JDK 17-24 that is a dynamic CDS archive ({@code .jsa}); on JDK 25+ (the JVMs run on the launcher's own JDK)
 * an AOT cache ({@code .aot}, JEP 483/514/515), which also holds the classes linked and the methods' execution
 * profiles from that run, so the JIT compiles the hot paths early instead of profiling them again under load.
 * The archive lives beside the service's jar ({@code target/quarkus-app}), so a fresh data directory still uses
 * it, and one older than the jar (a rebuild) is not used. Its name carries a digest of the JDK's version and the
 * JVM's other flags, and only a JVM started the same way maps it: a JDK 25 JVM that cannot use an AOT cache of
 * linked classes (another heap layout, say) refuses to start instead of running without it. Each writer writes
 * a file of its own name (two stacks may stop at once); the newest complete one is used, the others removed.
 * {@code IRONFLOW_APPCDS=off} turns it off.
 */
final class AppCds {

    /** JDK 25 made the AOT cache's one-step training ({@code -XX:AOTCacheOutput}) and method profiles final. */
    private static final boolean AOT_CACHE = Runtime.version().feature() >= 25;
    private static final String PREFIX = AOT_CACHE ? "ironflow-aot." : "ironflow-appcds.";
    private static final String SUFFIX = AOT_CACHE ? ".aot" : ".jsa";
    private static final String USE = AOT_CACHE ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=";
    private static final String WRITE_AT_EXIT = AOT_CACHE ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=";
    /**
     * A file modified this recently may still be being written by a JVM at its exit, unless no live process names
     * it on its command line: its writer has exited (a JDK 25 writer waits for the JVM it forks to assemble it).
     */
    private static final Duration SETTLED = Duration.ofSeconds(30);

    private AppCds() {
    }

    /**
     * The JVM flag for {@code jar} run with {@code jvmFlags}: use its archive if there is a current one written
     * under the same flags, else write one at exit.
     */
    static List<String> options(Path jar, List<String> jvmFlags) {
        if ("off".equalsIgnoreCase(System.getenv("IRONFLOW_APPCDS"))) {
            return List.of();
        }
        Path dir = jar.toAbsolutePath().getParent();
        String prefix = PREFIX + digest(Runtime.version() + " " + String.join(" ", jvmFlags)) + ".";
        try {
            FileTime built = Files.getLastModifiedTime(jar);
            Optional<Path> archive = current(dir, prefix, built);
            if (archive.isPresent()) {
                return List.of(USE + archive.get());
            }
            return List.of(WRITE_AT_EXIT + dir.resolve(prefix + UUID.randomUUID() + SUFFIX));
        } catch (IOException e) {
            return List.of(); // no jar or an unreadable directory: start without, ChildJvm reports a missing jar
        }
    }

    /**
     * The newest complete archive of {@code prefix} newer than the jar. Removes, whatever their flags, the archives
     * a rebuild made stale, the complete ones left empty, and what a writer killed while assembling its AOT cache
     * left behind (its {@code .aot.config}); and the archives of {@code prefix} the newest supersedes.
     */
    private static Optional<Path> current(Path dir, String prefix, FileTime built) throws IOException {
        Predicate<Path> complete = complete(Instant.now().minus(SETTLED));
        List<Path> files;
        try (Stream<Path> listed = Files.list(dir)) {
            files = listed.filter(f -> f.getFileName().toString().startsWith(PREFIX))
                    .sorted(Comparator.comparing(AppCds::modified).reversed()).toList();
        }
        List<Path> ours = new ArrayList<>(); // newest first
        for (Path file : files) {
            boolean archive = file.toString().endsWith(SUFFIX);
            boolean stale = archive && (modified(file).compareTo(built) <= 0 || complete.test(file) && isEmpty(file));
            if (archive ? stale : complete.test(file)) {
                Files.deleteIfExists(file);
            } else if (archive && file.getFileName().toString().startsWith(prefix)) {
                ours.add(file);
            }
        }
        Optional<Path> newest = ours.stream().filter(complete).findFirst();
        for (Path archive : ours) {
            if (newest.isPresent() && !archive.equals(newest.get()) && complete.test(archive)) {
                Files.deleteIfExists(archive);
            }
        }
        return newest;
    }

    /**
     * An archive file its writer created but never filled: the JDK 25 assembly creates the file first, and a stop
     * or a copy in between leaves it empty. A JVM started on it logs an error and loads every class itself.
     */
    private static boolean isEmpty(Path file) {
        try {
            return Files.size(file) == 0;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Whether a file is complete: modified before {@code before}, or named by no live writer (a JVM whose flag
     * writes that archive at its exit; a JDK 25 writer's {@code .aot.config} carries the archive's name).
     */
    private static Predicate<Path> complete(Instant before) {
        List<String> writers = ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                .filter(commandLine -> commandLine.contains(WRITE_AT_EXIT)).toList();
        return file -> {
            String name = file.getFileName().toString();
            int suffix = name.indexOf(SUFFIX);
            String archive = suffix < 0 ? name : name.substring(0, suffix);
            return modified(file).toInstant().isBefore(before) || writers.stream().noneMatch(writer -> writer.contains(archive));
        };
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
