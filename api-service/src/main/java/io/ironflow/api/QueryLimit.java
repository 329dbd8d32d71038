package io.ironflow.api;

import io.ironflow.api.errors.ApiError;

/**
 * Ironic's {@code limit} query parameter, the same on every list (nodes, ports, history): absent means the maximum,
 * a non-number or a number below 1 is a 400 in Ironic's words, and a larger one is cut to {@value #MAX}.
 */
public final class QueryLimit {

    /** Ironic's [api] max_limit default. */
    public static final int MAX = 1000;

    private QueryLimit() {
    }

    public static int parse(String text) {
        if (text == null) {
            return MAX;
        }
        int limit;
        try {
            limit = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            if (text.matches("\\+?[0-9]+")) {
                return MAX; // past an int, as Python's int takes it: cut like any other large limit
            }
            if (text.matches("-[0-9]+")) {
                throw ApiError.badRequest("Limit must be positive");
            }
            throw ApiError.badRequest("Invalid input for field/attribute limit. Value: '" + text + "'. Wrong type. Expected 'int'");
        }
        if (limit <= 0) {
            throw ApiError.badRequest("Limit must be positive");
        }
        return Math.min(limit, MAX);
    }
}
