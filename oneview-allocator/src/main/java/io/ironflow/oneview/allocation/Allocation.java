package io.ironflow.oneview.allocation;

/**
 * What one allocation request came to: success or not, the profile Ironflow now holds (apply), OneView's or our
 * message, whether a OneView user holds the hardware, and what must become of the node's
 * {@code driver_info.applied_server_profile_uri} (the allocator asks the conductor for it with an intent), and the
 * hardware's power when the request ended, in Ironic's words (null: unknown).
 */
public record Allocation(boolean success, String serverProfileUri, String errorMessage, boolean inUseByOneView,
        AppliedField field, String powerState) {

    /** The change to {@code driver_info.applied_server_profile_uri}. */
    public enum AppliedField { KEEP, SET, REMOVE }

    static Allocation applied(String profileUri, boolean recorded) {
        return new Allocation(true, profileUri, null, false, recorded ? AppliedField.KEEP : AppliedField.SET, null);
    }

    static Allocation removed(boolean hadField) {
        return new Allocation(true, null, null, false, hadField ? AppliedField.REMOVE : AppliedField.KEEP, null);
    }

    static Allocation failed(String message, boolean inUseByOneView) {
        return new Allocation(false, null, message, inUseByOneView, AppliedField.KEEP, null);
    }

    /** The same outcome, with the hardware's power when it ended. */
    Allocation withPower(String power) {
        return new Allocation(success, serverProfileUri, errorMessage, inUseByOneView, field, power);
    }
}
