package io.ironflow.api;

import io.ironflow.api.errors.ApiError;
import java.util.Locale;

/** Boolean query parameters as Ironic reads them: oslo's strict bool_from_string ({@code True}, {@code no}, ...). */
public final class QueryBooleans {

    private QueryBooleans() {
    }

    /** {@code value} as a boolean; anything else is a 400 whose message starts with {@code context}. */
    public static boolean parse(String value, String context) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "1", "t", "true", "on", "y", "yes" -> true;
            case "0", "f", "false", "off", "n", "no" -> false;
            default -> throw ApiError.badRequest(context + "Unrecognized value '" + value + "', acceptable values are:"
                    + " '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'");
        };
    }
}
