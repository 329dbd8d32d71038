package io.ironflow.teardown.steps;

import io.ironflow.teardown.status.StepFailure;
import java.time.Duration;

/** A query parameter that is a whole number of seconds, or a 400 BadRequest naming it. */
public final class Seconds {

    private Seconds() {
    }

    /** {@code value} as seconds, {@code defaultSeconds} when absent; at least 1, at most ten days. */
    public static long parse(String name, String value, long defaultSeconds) {
        if (value == null) {
            return defaultSeconds;
        }
        String text = value.trim();
        if (!text.matches("[0-9]{1,7}") || Long.parseLong(text) < 1 || Long.parseLong(text) > 864_000) {
            throw StepFailure.badRequest(name + " must be a whole number of seconds from 1 to 864000, not \"" + value + "\"");
        }
        return Long.parseLong(text);
    }

    public static Duration duration(String name, String value, long defaultSeconds) {
        return Duration.ofSeconds(parse(name, value, defaultSeconds));
    }
}
