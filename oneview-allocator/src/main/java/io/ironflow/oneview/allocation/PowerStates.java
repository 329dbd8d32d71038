package io.ironflow.oneview.allocation;

/**
 * OneView's {@code powerState} of a server hardware in Ironic's words, as Ironic's OneView power interface read
 * it ({@code get_power_state}): On and PoweringOff are {@code power on} (still on), Off and PoweringOn are
 * {@code power off} (still off). Resetting and Unknown give null: a reading the power sync leaves alone (Ironic
 * recorded {@code rebooting}, which is not a state Ironflow's power_state takes, and an error for Unknown).
 */
public final class PowerStates {

    public static final String POWER_ON = "power on";
    public static final String POWER_OFF = "power off";

    private PowerStates() {
    }

    public static String ironic(String oneViewPowerState) {
        if (oneViewPowerState == null) {
            return null;
        }
        return switch (oneViewPowerState) {
            case "On", "PoweringOff" -> POWER_ON;
            case "Off", "PoweringOn" -> POWER_OFF;
            default -> null;
        };
    }

    /** Where a power target leaves the hardware: the reboots end on, soft power off ends off. */
    static String endState(String target) {
        return POWER_OFF.equals(target) || "soft power off".equals(target) ? POWER_OFF : POWER_ON;
    }
}
