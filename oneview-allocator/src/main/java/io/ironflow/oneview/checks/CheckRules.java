package io.ironflow.oneview.checks;

import io.ironflow.oneview.allocation.Ownership;
import java.util.List;
import java.util.function.Supplier;

/**
 * The spec's three periodic checks as pure rules (Ironic's {@code _periodic_check_nodes_taken_by_oneview},
 * {@code _freed_by_oneview}, {@code _taken_on_cleanfail}), each giving the intents to send, in order:
 * <ul>
 * <li>taken by OneView: available, not in maintenance, hardware held by OneView → maintenance with
 * {@value #IN_USE_BY_ONEVIEW}, then manage;</li>
 * <li>freed by OneView: manageable, in maintenance with exactly that reason, hardware no longer OneView's →
 * maintenance off, then provide (so it is cleaned before anyone gets it);</li>
 * <li>taken on clean failure: clean failed with {@code driver_internal_info.oneview_error} =
 * {@value #ALLOCATION_ERROR} (the allocation found the hardware in use by OneView, as Ironic marked it) →
 * maintenance with that reason, then manage; the second check brings it back once freed.</li>
 * </ul>
 * Retired nodes, pre-allocated nodes and nodes without server hardware are never touched, nor observed; nodes
 * in a transient state (an -ing or wait state, where an allocation may be under way) are not observed either.
 */
public final class CheckRules {

    /** Ironic's maintenance reason for these nodes ({@code NODE_IN_USE_BY_ONEVIEW}). */
    public static final String IN_USE_BY_ONEVIEW = "node in use by OneView";
    /** Ironic's {@code SERVER_HARDWARE_ALLOCATION_ERROR}, set by the conductor as {@code oneview_error}. */
    public static final String ALLOCATION_ERROR = "server hardware allocation error";

    /** An intent to send: maintenance on/off with a reason, or a provision verb. */
    public sealed interface Action {
    }

    public record Maintenance(boolean on, String reason) implements Action {
    }

    public record Verb(String target) implements Action {
    }

    private CheckRules() {
    }

    /** Whether the periodic pass looks at this node's hardware (and records what it sees for validation). */
    public static boolean observable(OneViewNode node) {
        String state = node.provisionState();
        return !node.retired() && node.dynamic() && node.serverHardwareUri() != null
                && !state.endsWith("ing") && !state.contains("wait");
    }

    public static List<Action> decide(OneViewNode node, Supplier<Ownership> ownership) {
        if (node.retired() || !node.dynamic() || node.serverHardwareUri() == null) {
            return List.of();
        }
        switch (node.provisionState()) {
            case "available":
                if (!node.maintenance() && ownership.get() == Ownership.ONEVIEW) {
                    return List.of(new Maintenance(true, IN_USE_BY_ONEVIEW), new Verb("manage"));
                }
                return List.of();
            case "manageable":
                if (node.maintenance() && IN_USE_BY_ONEVIEW.equals(node.maintenanceReason())
                        && ownership.get() != Ownership.ONEVIEW) {
                    return List.of(new Maintenance(false, null), new Verb("provide"));
                }
                return List.of();
            case "clean failed":
                if (ALLOCATION_ERROR.equals(node.oneviewError())) {
                    return List.of(new Maintenance(true, IN_USE_BY_ONEVIEW), new Verb("manage"));
                }
                return List.of();
            default:
                return List.of();
        }
    }
}
