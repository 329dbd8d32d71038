package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.FakeHardwareRecord;
import io.ironflow.conductor.domain.hardware.HardwareDriver;
import io.ironflow.conductor.domain.hardware.StepResult;
import io.ironflow.conductor.work.OneViewPower;
import io.ironflow.events.ChangePowerState;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@link ChangePowerState}: a target that is not one of Ironic's power states is 400. A oneview node's power is
 * asked of the allocator (answered later, within {@code oneview-power-timeout}); any other node's driver sets it
 * now, and a refusal of the hardware is the node's {@code last_error}, its power state unchanged; 202.
 */
@ApplicationScoped
class ChangePowerStateHandler implements CommandHandler<ChangePowerState> {

    private static final Set<String> POWER_TARGETS = Set.of(HardwareDriver.POWER_ON, HardwareDriver.POWER_OFF,
            HardwareDriver.REBOOTING, HardwareDriver.SOFT_POWER_OFF, HardwareDriver.SOFT_REBOOTING);

    private final NodeEdits edits;
    private final Duration oneViewPowerTimeout;

    ChangePowerStateHandler(NodeEdits edits,
            @ConfigProperty(name = "ironflow.conductor.oneview-power-timeout", defaultValue = "120s") Duration oneViewPowerTimeout) {
        this.edits = edits;
        this.oneViewPowerTimeout = oneViewPowerTimeout;
    }

    @Override
    public Class<ChangePowerState> command() {
        return ChangePowerState.class;
    }

    @Override
    public boolean writesOnlyItsNode() {
        return true;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, ChangePowerState command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> {
            String target = command.getTarget();
            if (!POWER_TARGETS.contains(target)) {
                throw Rejection.badRequest("Invalid input for field/attribute target. Value: '" + target
                        + "'. The target must be one of power on, power off, rebooting, soft power off, soft rebooting.");
            }
            if (OneViewPower.applies(change.node())) { // OneView's power, through the allocator: answered later
                return edits.reserve(change).flatMap(x -> {
                    OneViewPower.request(change, target, oneViewPowerTimeout);
                    change.aggregate().release();
                    return change.announce();
                }).replaceWith(() -> Outcome.done(202, change.node()));
            }
            return edits.whileReserved(change, node -> {
                HardwareDriver driver = Drivers.get(node.driver);
                FakeHardwareRecord hardware = FakeHardwareRecord.fromDriverInternalInfo(node.driverInternalInfo);
                StepResult result = driver.setPower(target, hardware);
                node.driverInternalInfo.put(FakeHardwareRecord.KEY, hardware.toJson());
                if (result instanceof StepResult.Failed failed) {
                    change.aggregate().powerChangeFailed("Failed to change power state to '" + target + "' on node "
                            + node.uuid + ": " + failed.error());
                } else {
                    change.aggregate().powerChanged(hardware.powerState());
                }
            }, 202);
        });
    }
}
