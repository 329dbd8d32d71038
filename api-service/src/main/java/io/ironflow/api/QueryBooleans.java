package io.ironflow.api;

import io.ironflow.api.errors.ApiError;
import io.ironflow.schemas.OsloBooleans;

/** Boolean query parameters as Ironic reads them: oslo's strict bool_from_string ({@code True}, {@code no}, ...). */
public final class QueryBooleans {

    private QueryBooleans() {
    }

    /** {@code value} as a boolean; anything else is a 400 whose message starts with {@code context}. */
    public static boolean parse(String value, String context) {
        return OsloBooleans.parse(value).orElseThrow(() -> ApiError.badRequest(context + "Unrecognized value '" + value
                + "', acceptable values are: " + OsloBooleans.ACCEPTED));
    }
}
