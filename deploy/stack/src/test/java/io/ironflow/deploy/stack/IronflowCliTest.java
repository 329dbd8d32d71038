package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The launcher's command line: every subcommand answers --help, every ./ironflow example in the README parses
 * (run with --help appended, so nothing starts), and a wrong flag or value is refused with one line, exit 2.
 */
class IronflowCliTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "up", "watch", "bench", "bench-list", "oneview-migrate", "token"})
    void everySubcommandAnswersHelp(String subcommand) {
        List<String> args = new ArrayList<>(subcommand.isEmpty() ? List.of() : List.of(subcommand));
        args.add("--help");
        IronflowRun help = IronflowRun.of(args.toArray(String[]::new));
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: ironflow" + (subcommand.isEmpty() ? "" : " " + subcommand)), help.out());
    }

    @Test
    void everyReadmeExampleParses() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("ironflow.home", "../..")).resolve("README.md"));
        Matcher example = Pattern.compile("(?m)(?:^|`)(?:[A-Z_]+=\\S+ )*\\./ironflow( [^#`\\n]*)?").matcher(readme);
        int checked = 0;
        while (example.find()) {
            String line = example.group(1) == null ? "" : example.group(1).trim();
            List<String> args = new ArrayList<>(line.isEmpty() ? List.of() : Arrays.asList(line.split("\\s+")));
            if (!args.contains("--help")) {
                args.add("--help");
            }
            IronflowRun run = IronflowRun.of(args.toArray(String[]::new));
            assertEquals(0, run.code(), "the README's ./ironflow " + line + ": " + run.err());
            checked++;
        }
        assertTrue(checked >= 4, "the README shows ./ironflow examples: " + checked);
    }

    @Test
    void aWrongFlagOrValueIsOneLineAndExit2() {
        for (String[] args : List.of(new String[] {"up", "--bogus"}, new String[] {"up", "--api-port", "70000"},
                new String[] {"up", "--api-port"}, new String[] {"bench", "--nodes", "many"}, new String[] {"nope"},
                new String[] {"watch", "ironflow.nope"}, new String[] {"up", "--kafka-reader", "site"},
                new String[] {"up", "--secure", "--kafka-reader", "no spaces"},
                new String[] {"up", "--secure", "--kafka-intent-producer", "ironflow-conductor"})) {
            IronflowRun run = IronflowRun.of(args);
            assertEquals(2, run.code(), String.join(" ", args) + ": " + run.err());
            assertEquals(1, run.err().lines().count(), String.join(" ", args) + " said more than one line: " + run.err());
            assertFalse(run.err().isBlank());
        }
    }

    /**
     * Issue 58: {@code --auth http_basic|jwt} without {@code --secure} ran a PLAINTEXT broker that any local process
     * could write forged intents to. Any authentication but noauth now brings Kafka's SASL/SCRAM and ACLs (and the
     * registry's basic auth) with it; noauth alone stays open, as before.
     */
    @Test
    void anAuthOtherThanNoauthImpliesAnAuthenticatedBroker() {
        for (String strategy : List.of("http_basic", "jwt")) {
            assertTrue(kafkaSecurity("--auth", strategy) != null, "--auth " + strategy + " runs an open broker");
            assertEquals(List.of("site"), kafkaSecurity("--auth", strategy, "--kafka-reader", "site").readers());
        }
        assertEquals(null, kafkaSecurity());
        assertEquals(null, kafkaSecurity("--auth", "noauth"));
        assertTrue(kafkaSecurity("--secure") != null);
    }

    /** What {@code ./ironflow up ARGS} would ask of Kafka (null: an open broker), parsed without starting anything. */
    private static io.ironflow.deploy.infra.KafkaSecurity.Options kafkaSecurity(String... args) {
        picocli.CommandLine command = IronflowCli.Up.command();
        command.parseArgs(args);
        return command.<IronflowCli.Up>getCommand().kafkaSecurity();
    }

    @Test
    void oneviewMigrateSaysInOneLineWhenNoAllocatorAnswers() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }
        IronflowRun run = IronflowRun.of("oneview-migrate", "--dry-run", "--allocator", "http://127.0.0.1:" + port);
        assertEquals(1, run.code(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().contains("does not answer"), run.err());
    }
}
