package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real {@code openstack} CLI (Debian's python3-openstackclient), run standalone against a stack with the
 * {@code OS_*} authentication a test gives: none ({@code OS_AUTH_TYPE=none}, as against a stack without auth),
 * keystoneauth's {@code http_basic}, or {@code admin_token} (this client's name for the old {@code token_endpoint}:
 * the token goes in X-Auth-Token to the given endpoint). No clouds.yaml of the machine's is read, and the client's
 * version cache stays in the test's directory. The one runner of the module's tests; each run is a process of its own,
 * forked warm by {@link CliZygote}.
 */
final class OpenstackCli {

    static final Path OPENSTACK = CliZygote.OPENSTACK;
    private static final Duration COMMAND = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String endpoint;
    private final Path home;

    /** @param home where the client keeps its config and cache (not the machine's clouds.yaml) */
    OpenstackCli(String endpoint, Path home) {
        this.endpoint = endpoint;
        this.home = home;
    }

    /** What one {@code openstack} run did. */
    record Run(List<String> args, int exitCode, String stdout, String stderr) {

        JsonNode json() {
            try {
                return JSON.readTree(stdout);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + this, e);
            }
        }

        Run ok() {
            assertEquals(0, exitCode, this::toString);
            return this;
        }

        Run failed() {
            assertNotEquals(0, exitCode, this::toString);
            return this;
        }

        /** stderr with the client's line wrapping folded to spaces. */
        String message() {
            return stderr.replaceAll("\\s+", " ").trim();
        }

        @Override
        public String toString() {
            return "openstack " + String.join(" ", args) + " -> exit " + exitCode + "\n--- stdout\n" + stdout
                    + "\n--- stderr\n" + stderr;
        }
    }

    /** Without authentication ({@code OS_AUTH_TYPE=none}), stdin empty. */
    Run none(String... args) throws Exception {
        return noneWithInput(null, args);
    }

    /** Without authentication, {@code input} on stdin (for {@code -} arguments). */
    Run noneWithInput(String input, String... args) throws Exception {
        return run(Map.of("OS_AUTH_TYPE", "none"), input, args);
    }

    /** As a user of keystoneauth's http_basic plugin. */
    Run basic(String user, String password, String... args) throws Exception {
        return run(Map.of("OS_AUTH_TYPE", "http_basic", "OS_USERNAME", user, "OS_PASSWORD", password), null, args);
    }

    /** With a token, sent as X-Auth-Token. */
    Run token(String token, String... args) throws Exception {
        return run(Map.of("OS_AUTH_TYPE", "admin_token", "OS_TOKEN", token), null, args);
    }

    /** Runs {@code openstack args}, stdin from {@code input} (empty if null). */
    private Run run(Map<String, String> auth, String input, String... args) throws Exception {
        assertTrue(Files.isExecutable(OPENSTACK), OPENSTACK + " is missing: install Debian's python3-openstackclient and "
                + "python3-ironicclient (apt-get install -y python3-openstackclient python3-ironicclient; .ci/run does)");
        Map<String, String> env = new HashMap<>(auth);
        env.put("OS_ENDPOINT", endpoint);
        env.put("OS_BAREMETAL_API_VERSION", "latest");
        CliZygote.Result result = CliZygote.forHome(home).run(List.of(args), env, input, COMMAND);
        return new Run(List.of(args), result.exitCode(), result.stdout(), result.stderr());
    }
}
