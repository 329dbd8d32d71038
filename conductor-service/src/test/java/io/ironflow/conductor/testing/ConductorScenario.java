package io.ironflow.conductor.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The preamble every scenario test shares: a {@link Conductor} connected before each test and closed after it.
 * A scenario test extends this and is a {@code @QuarkusTest} with the test infrastructure as its resource.
 */
public abstract class ConductorScenario {

    protected Conductor conductor;

    @BeforeEach
    protected void connect() {
        conductor = Conductor.connect();
    }

    @AfterEach
    protected void disconnect() {
        conductor.close();
    }
}
