package io.ironflow.conductor.domain;

import java.util.Set;

/** The hardware types this conductor can drive. */
public final class Drivers {

    public static final String FAKE_HARDWARE = "fake-hardware";

    private static final Set<String> ENABLED = Set.of(FAKE_HARDWARE);

    private Drivers() {
    }

    public static Set<String> enabled() {
        return ENABLED;
    }

    /** Ironic answers an unknown driver with 400 from the API (NoValidHost / DriverNotFound). */
    public static void requireEnabled(String driver) {
        if (!ENABLED.contains(driver)) {
            throw Rejection.badRequest("No valid host was found. Reason: No conductor service registered which supports driver "
                    + driver + ".");
        }
    }
}
