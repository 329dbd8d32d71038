package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Free ports come from below the ephemeral range, where no client socket takes them, and are really free. */
class PortsTest {

    @Test
    void freePortsAreDistinctBindableAndBelowTheEphemeralRange() throws Exception {
        int[] ports = Ports.free(50);
        assertEquals(50, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        int ephemeral = Ports.ephemeralRangeStart();
        for (int port : ports) {
            assertTrue(port >= 10_000 && port < ephemeral, port + " is in the ephemeral range from " + ephemeral);
            assertFalse(Ports.inUse(port), port + " is free");
        }
        try (ServerSocket held = new ServerSocket(ports[0], 1, InetAddress.getLoopbackAddress())) {
            assertTrue(Ports.inUse(ports[0]), "a listener makes it in use");
        }
    }
}
