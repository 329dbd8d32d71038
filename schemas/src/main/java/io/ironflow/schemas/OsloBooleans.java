package io.ironflow.schemas;

import java.util.Locale;
import java.util.Optional;

/**
 * The words Ironic takes as booleans: oslo.utils' {@code strutils.bool_from_string} (trimmed, any case), shared by
 * every service so that a field, a query parameter and a policy rule read the same word the same way.
 */
public final class OsloBooleans {

    /** The words, as Ironic's error message lists them. */
    public static final String ACCEPTED = "'0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'";

    private OsloBooleans() {
    }

    /** What {@code text} says, or empty when it is none of the words (strict mode's error, the caller's to word). */
    public static Optional<Boolean> parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "1", "t", "true", "on", "y", "yes" -> Optional.of(true);
            case "0", "f", "false", "off", "n", "no" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
