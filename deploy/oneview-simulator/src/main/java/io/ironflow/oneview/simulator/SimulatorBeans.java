package io.ironflow.oneview.simulator;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Builds the one {@link Appliance} from configuration (with {@code oneview.simulator.data-dir}, its state is kept
 * in {@code appliance-state.json} there across restarts) and drives its tasks on a timer.
 */
@Singleton
public class SimulatorBeans {

    @Produces
    @Singleton
    Faults faults() {
        return new Faults();
    }

    @Produces
    @Singleton
    CallLog calls() {
        return new CallLog();
    }

    @Produces
    @Singleton
    Appliance appliance(Faults faults,
            @ConfigProperty(name = "oneview.simulator.inventory") Optional<String> inventory,
            @ConfigProperty(name = "oneview.simulator.generated-hardware", defaultValue = "0") int generated,
            @ConfigProperty(name = "oneview.simulator.task-phase", defaultValue = "500ms") Duration taskPhase,
            @ConfigProperty(name = "oneview.simulator.session-idle-timeout", defaultValue = "24h") Duration idle,
            @ConfigProperty(name = "oneview.simulator.data-dir") Optional<Path> dataDir) throws IOException {
        Path stateFile = null;
        if (dataDir.isPresent()) {
            stateFile = Files.createDirectories(dataDir.get()).resolve("appliance-state.json");
        }
        return new Appliance(Inventory.load(inventory.orElse(null), generated), faults, taskPhase, idle, stateFile);
    }

    void tickTasks(@Observes StartupEvent start, Vertx vertx, Appliance appliance,
            @ConfigProperty(name = "oneview.simulator.task-phase", defaultValue = "500ms") Duration taskPhase) {
        long every = Math.max(5, Math.min(100, taskPhase.toMillis() / 4));
        vertx.setPeriodic(every, id -> appliance.tick(System.currentTimeMillis()));
    }
}
