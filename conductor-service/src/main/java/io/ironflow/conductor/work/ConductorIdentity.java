package io.ironflow.conductor.work;

import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** This conductor's name, as it appears in reservations, node-events and intent results. */
@ApplicationScoped
public class ConductorIdentity {

    private final String name;

    ConductorIdentity(@ConfigProperty(name = "ironflow.conductor.name") Optional<String> configured) {
        this.name = configured.orElseGet(ConductorIdentity::hostAndPid);
    }

    public String name() {
        return name;
    }

    // Ironic names conductors by host; the pid keeps two conductors on one host apart.
    private static String hostAndPid() {
        try {
            return InetAddress.getLocalHost().getHostName() + "-" + ProcessHandle.current().pid();
        } catch (UnknownHostException e) {
            return "conductor-" + ProcessHandle.current().pid();
        }
    }
}
