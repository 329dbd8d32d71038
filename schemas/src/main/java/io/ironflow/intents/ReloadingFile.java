package io.ironflow.intents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * A key file read again when it changes, so keys rotate without a restart: an operator writes the new file (best
 * by a rename, so no reader sees half of it) and the next use, at most {@code checkEvery} later, reads it. The
 * first read must succeed (a service does not start on a broken key file); a later file that does not parse is
 * logged and the last good one kept, so a slip in an edit does not stop every intent.
 */
final class ReloadingFile<T> {

    private static final Logger LOG = Logger.getLogger(ReloadingFile.class);

    private final Path path;
    private final Function<String, T> parser;
    private final long checkEveryNanos;
    private volatile Loaded<T> loaded;

    private record Loaded<T>(T value, FileTime modified, long checkedAt) {
    }

    ReloadingFile(Path path, Function<String, T> parser, Duration checkEvery) {
        this.path = path;
        this.parser = parser;
        this.checkEveryNanos = checkEvery.toNanos();
        FileTime modified = modified();
        this.loaded = new Loaded<>(parser.apply(read()), modified, System.nanoTime());
    }

    T get() {
        return checkedWithin(checkEveryNanos);
    }

    /**
     * The file as read at most {@code maxAge} ago: for a name the last read did not know (a key just added), so it
     * is in use at once; bounded, so names nobody added cannot make every call read the disk.
     */
    T checkedWithin(Duration maxAge) {
        return checkedWithin(Math.min(maxAge.toNanos(), checkEveryNanos));
    }

    private T checkedWithin(long maxAgeNanos) {
        Loaded<T> current = loaded;
        long now = System.nanoTime();
        if (now - current.checkedAt() < maxAgeNanos) {
            return current.value();
        }
        synchronized (this) {
            current = loaded;
            if (now - current.checkedAt() < maxAgeNanos) {
                return current.value();
            }
            try {
                FileTime modified = modified();
                T value = modified.equals(current.modified()) ? current.value() : parser.apply(read());
                if (value != current.value()) {
                    LOG.infof("%s changed: its keys are in use now", path);
                }
                loaded = new Loaded<>(value, modified, now);
            } catch (RuntimeException unreadable) {
                LOG.errorf("%s cannot be used (%s); the keys read before stay in use", path, unreadable.getMessage());
                loaded = new Loaded<>(current.value(), current.modified(), now);
            }
            return loaded.value();
        }
    }

    private FileTime modified() {
        try {
            return Files.getLastModifiedTime(path);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("the key file " + path + " does not exist");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String read() {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the key file " + path, e);
        }
    }
}
