package io.ironflow.deploy.infra;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A properties file of secrets that only its owner may read (0600, written that way from the first byte, never
 * widened): each key's value is kept once chosen, and a key it lacks gets a new random value. The data directory
 * of a stack keeps its secrets in such files, so a restart finds the same passwords and nothing prints them.
 */
public final class SecretFile {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;
    private final Map<String, String> values;

    private SecretFile(Path file, Map<String, String> values) {
        this.file = file;
        this.values = values;
    }

    /** The file's secrets, with every key of {@code keys} it lacked added as a new random password and saved. */
    public static SecretFile open(Path file, String... keys) {
        Map<String, Supplier<String>> wanted = new LinkedHashMap<>();
        for (String key : keys) {
            wanted.put(key, SecretFile::randomPassword);
        }
        return open(file, wanted);
    }

    /** The same, with the value of each missing key made by its supplier. */
    public static SecretFile open(Path file, Map<String, Supplier<String>> keys) {
        try {
            Properties properties = new Properties();
            if (Files.exists(file)) {
                try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    properties.load(in);
                }
            }
            boolean changed = false;
            for (Map.Entry<String, Supplier<String>> key : keys.entrySet()) {
                if (!properties.containsKey(key.getKey())) {
                    properties.setProperty(key.getKey(), key.getValue().get());
                    changed = true;
                }
            }
            if (changed || !Files.exists(file)) {
                write(file, properties);
            }
            Map<String, String> values = new LinkedHashMap<>();
            properties.stringPropertyNames().forEach(k -> values.put(k, properties.getProperty(k)));
            return new SecretFile(file, Map.copyOf(values));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the secrets file " + file, e);
        }
    }

    /** Writes {@code text} to {@code file}, readable by its owner only (created so, never world-readable in between). */
    public static void writeOwnerOnly(Path file, String text) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        Files.createFile(partial, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.writeString(partial, text, StandardCharsets.UTF_8);
        Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static void write(Path file, Properties properties) throws IOException {
        StringWriter text = new StringWriter();
        try (Writer out = text) {
            properties.store(out, "Ironflow's generated secrets for this data directory; keep this file private");
        }
        writeOwnerOnly(file, text.toString());
    }

    /** 24 random bytes, URL-safe base64 (32 characters): nothing to quote in a URL, a shell or a SQL literal. */
    public static String randomPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public String get(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalStateException(file + " has no " + key);
        }
        return value;
    }

    public Path path() {
        return file;
    }
}
