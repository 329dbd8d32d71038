package io.ironflow.conductor.domain.hardware;

import io.ironflow.conductor.domain.Rejection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The hardware types this conductor can drive: a registry of {@link HardwareDriver}s by name. */
public final class Drivers {

    public static final String FAKE_HARDWARE = FakeHardware.NAME;

    public static final String ONEVIEW = OneViewHardware.NAME;

    private static final Map<String, HardwareDriver> REGISTRY = Map.of(FAKE_HARDWARE, new FakeHardware(),
            ONEVIEW, new OneViewHardware());

    private Drivers() {
    }

    public static Set<String> enabled() {
        return REGISTRY.keySet();
    }

    public static Optional<HardwareDriver> find(String driver) {
        return Optional.ofNullable(driver == null ? null : REGISTRY.get(driver));
    }

    /** The driver named {@code driver}; unknown ones are refused as by {@link #requireEnabled}. */
    public static HardwareDriver get(String driver) {
        requireEnabled(driver);
        return REGISTRY.get(driver);
    }

    /** Ironic answers an unknown driver with 400 from the API (NoValidHost / DriverNotFound). */
    public static void requireEnabled(String driver) {
        if (driver == null || !REGISTRY.containsKey(driver)) {
            throw Rejection.badRequest("No valid host was found. Reason: No conductor service registered which supports driver "
                    + driver + ".");
        }
    }
}
