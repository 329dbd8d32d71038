package io.ironflow.conductor.domain;

import java.util.UUID;
import java.util.regex.Pattern;

/** Ironic's rules for node names and identifiers (ironic/common/utils.py is_valid_logical_name). */
public final class NodeNames {

    // RFC 3986 unreserved characters; a name must not look like a UUID, so lookups by name stay unambiguous.
    private static final Pattern LOGICAL_NAME = Pattern.compile("[A-Za-z0-9._~-]{1,255}");

    private NodeNames() {
    }

    /** Ironic's is_valid_logical_name (which portgroup names also follow), and not a UUID. */
    public static boolean isValidName(String name) {
        return LOGICAL_NAME.matcher(name).matches() && !isUuid(name);
    }

    public static void requireValidName(String name) {
        if (name != null && !isValidName(name)) {
            throw Rejection.badRequest("Cannot use '" + name + "' as a node name: a name may contain only letters, digits"
                    + " and '-._~', at most 255 characters, and must not be a UUID.");
        }
    }

    public static UUID requireUuid(String value) {
        try {
            UUID uuid = UUID.fromString(value);
            if (!uuid.toString().equalsIgnoreCase(value)) {
                throw new IllegalArgumentException();
            }
            return uuid;
        } catch (IllegalArgumentException e) {
            throw Rejection.badRequest("Expected a UUID but received " + value + ".");
        }
    }

    public static boolean isUuid(String value) {
        try {
            return UUID.fromString(value).toString().equalsIgnoreCase(value);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
