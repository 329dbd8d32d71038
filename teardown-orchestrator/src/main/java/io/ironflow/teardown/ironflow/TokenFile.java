package io.ironflow.teardown.ironflow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * A bearer token that something else keeps fresh in a file (the local stack's launcher, a kubelet's projected
 * service-account token, a Vault agent): read again whenever the file changes, so the token the orchestrator
 * sends is always the newest and may live minutes, not a year. A file that cannot be read keeps the token read
 * before; none read yet is an {@link IllegalStateException}, as a wrong service account is.
 */
final class TokenFile {

    private final Path path;
    private FileTime readAt;
    private String token;

    TokenFile(Path path) {
        this.path = path;
    }

    synchronized String token() {
        try {
            FileTime modified = Files.getLastModifiedTime(path);
            if (token == null || !modified.equals(readAt)) {
                String read = Files.readString(path).trim();
                if (!read.isEmpty()) {
                    token = read;
                    readAt = modified;
                }
            }
        } catch (IOException e) {
            if (token == null) {
                throw new IllegalStateException("cannot read the API token file " + path + ": " + e.getMessage(),
                        new UncheckedIOException(e));
            }
        }
        if (token == null) {
            throw new IllegalStateException("the API token file " + path + " is empty");
        }
        return token;
    }
}
