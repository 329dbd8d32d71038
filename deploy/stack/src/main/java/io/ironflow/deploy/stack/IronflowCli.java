package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.IntentKeyring;
import io.ironflow.intents.KeyBinding;
import java.util.Set;

import io.ironflow.deploy.infra.KafkaSecurity;
import io.ironflow.schemas.Topic;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./ironflow}: one command line, parsed by picocli, for everything the launcher does. Contract: every
 * subcommand answers {@code --help} (exit 0); an unknown flag, a missing value or a bad number is refused with one
 * line naming it (exit 2), and nothing is started.
 */
@Command(name = "ironflow", mixinStandardHelpOptions = true, version = "Ironflow 0.1.0-SNAPSHOT",
        description = "Runs Ironflow on this machine, watches its topics, and benchmarks it.",
        subcommands = {IronflowCli.Watch.class, IronflowCli.Bench.class, IronflowCli.BenchList.class,
                IronflowCli.OneViewMigrateCommand.class, IronflowCli.Token.class, IronflowCli.IntentKey.class})
public final class IronflowCli implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Parses and runs {@code args}; returns the exit code. */
    static int run(String... args) {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** The same, writing help to {@code out} and refusals to {@code err}. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new IronflowCli());
        cli.addSubcommand("up", Up.command());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, ignored) -> {
            String name = e.getCommandLine().getCommandSpec().qualifiedName();
            e.getCommandLine().getErr().println(name + ": " + e.getMessage() + " (see " + name + " --help)");
            return 2;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2; // a subcommand is needed
    }

    /** {@code ironflow up}: the whole system on this machine, supervised until Ctrl-C. */
    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Starts the whole system on this machine and supervises it until Ctrl-C.",
                    "Kafka, PostgreSQL, the schema registry, the four services and the dashboard; a service that exits",
                    "or whose /q/health/live stays DOWN for --liveness-timeout seconds is restarted. Each component's",
                    "port has a flag."})
    static final class Up implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--data-dir", paramLabel = "DIR", description = "Where everything is kept (default: .ironflow in the repository).")
        Path dataDir;

        @Option(names = "--liveness-timeout", paramLabel = "SECONDS", defaultValue = "30",
                description = "How long a service's liveness may stay DOWN before it is restarted (default: ${DEFAULT-VALUE}).")
        int livenessTimeout;

        @Option(names = "--auth", paramLabel = "STRATEGY", defaultValue = "noauth",
                description = {"How API callers authenticate: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
                        "http_basic and jwt generate users admin, reader, member (project demo) and the services' account",
                        "under DIR/auth (0600; the path is printed, the secrets never)."})
        StackAuth.AuthStrategy auth;

        @Option(names = "--users-file", paramLabel = "FILE",
                description = "With --auth http_basic: your htpasswd file (bcrypt entries, htpasswd -B) instead of the generated users.")
        Path usersFile;

        @Option(names = "--roles-file", paramLabel = "FILE",
                description = "With --users-file: your users' roles and project, YAML (user: {roles: [member], project: p1}).")
        Path rolesFile;

        @Option(names = "--token-lifetime", paramLabel = "D", defaultValue = "1h", converter = Lifetime.class,
                description = {"With --auth jwt: how long the generated users' tokens live, e.g. 30m, 1h, 7d (default: ${DEFAULT-VALUE}).",
                        "./ironflow token mints fresh ones; the services' own account gets a long-lived token (see README)."})
        Duration tokenLifetime;

        @Option(names = "--secure", description = {"Kafka with SASL/SCRAM-SHA-512 and ACLs (one principal per service), the registry",
                "with basic auth; random passwords kept in DATA/secrets/ (0600), never printed. Implied by any --auth but noauth."})
        boolean secure;

        @Option(names = "--kafka-keystore", paramLabel = "FILE", description = {"With --secure (or --auth): TLS on Kafka's client listener",
                "(SASL_SSL) with this PKCS12 key store; its password in IRONFLOW_KAFKA_KEYSTORE_PASSWORD."})
        Path keyStore;

        @Option(names = "--kafka-truststore", paramLabel = "FILE", description = {"The PKCS12 trust store the clients verify the",
                "broker with (default: the key store); its password in IRONFLOW_KAFKA_TRUSTSTORE_PASSWORD (default: the key store's)."})
        Path trustStore;

        @Option(names = "--kafka-intent-producer", paramLabel = "NAME", description = {"With --secure (or --auth): an external Kafka principal",
                "that may write intents (and read their results, in the consumer group of its own name); repeatable."})
        List<String> intentProducers = new ArrayList<>();

        @Option(names = "--kafka-reader", paramLabel = "NAME", description = {"With --secure (or --auth): an external read-only Kafka principal",
                "(node state, node events, teardown events), in the consumer group of its own name; repeatable."})
        List<String> readers = new ArrayList<>();

        /** The command with one {@code --<component>-port} option per port of {@link StackOptions#defaultPorts()}. */
        static CommandLine command() {
            CommandLine command = new CommandLine(new Up());
            StackOptions.defaultPorts().forEach((name, port) -> command.getCommandSpec().addOption(
                    OptionSpec.builder(StackOptions.flagFor(name)).paramLabel("N").type(int.class)
                            .defaultValue(String.valueOf(port)).description("Port of " + name + " (default: ${DEFAULT-VALUE}).")
                            .build()));
            return command;
        }

        @Override
        public Integer call() throws Exception {
            if (livenessTimeout < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--liveness-timeout must be at least 1");
            }
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (String name : StackOptions.defaultPorts().keySet()) {
                int port = spec.findOption(StackOptions.flagFor(name)).<Integer>getValue();
                if (port < 1 || port > 65535) {
                    throw new CommandLine.ParameterException(spec.commandLine(),
                            StackOptions.flagFor(name) + " takes a number from 1 to 65535, not '" + port + "'");
                }
                ports.put(name, port);
            }
            if ((usersFile != null || rolesFile != null) && auth != StackAuth.AuthStrategy.http_basic) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--users-file and --roles-file need --auth http_basic");
            }
            for (Path file : new Path[] {usersFile, rolesFile}) {
                if (file != null && !java.nio.file.Files.isReadable(file)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "cannot read " + file);
                }
            }
            Path home = StackOptions.defaultHome();
            Path data = dataDir == null ? home.resolve(".ironflow") : dataDir.toAbsolutePath().normalize();
            LocalStack.up(new StackOptions(home, data, Map.copyOf(ports), Duration.ofSeconds(livenessTimeout), auth,
                    usersFile == null ? null : usersFile.toAbsolutePath(), rolesFile == null ? null : rolesFile.toAbsolutePath(),
                    tokenLifetime, kafkaSecurity()));
            return 0;
        }

        /**
         * Whether Kafka authenticates (SASL/SCRAM, ACLs, the registry's basic auth): with {@code --secure}, and with any
         * {@code --auth} but noauth, since authenticating API callers is worth nothing while any local process may
         * write intents to an open broker (issue 58).
         */
        private boolean secureKafka() {
            return secure || auth != StackAuth.AuthStrategy.noauth;
        }

        /**
         * What was asked for the secure stack, or null for an open one; a secure option on an open stack is refused.
         * Package-private: the test parses a command line without starting anything.
         */
        KafkaSecurity.Options kafkaSecurity() {
            if (!secureKafka()) {
                if (keyStore != null || trustStore != null || !intentProducers.isEmpty() || !readers.isEmpty()) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--kafka-keystore, --kafka-truststore,"
                            + " --kafka-intent-producer and --kafka-reader need --secure (or an --auth other than noauth)");
                }
                return null;
            }
            KafkaSecurity.Tls tls = null;
            if (keyStore != null) {
                String password = System.getenv("IRONFLOW_KAFKA_KEYSTORE_PASSWORD");
                if (password == null || !Files.isReadable(keyStore)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--kafka-keystore needs a readable file and"
                            + " its password in IRONFLOW_KAFKA_KEYSTORE_PASSWORD");
                }
                String trustPassword = System.getenv().getOrDefault("IRONFLOW_KAFKA_TRUSTSTORE_PASSWORD", password);
                tls = new KafkaSecurity.Tls(keyStore.toAbsolutePath(), password,
                        (trustStore == null ? keyStore : trustStore).toAbsolutePath(), trustPassword);
            } else if (trustStore != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--kafka-truststore needs --kafka-keystore");
            }
            try {
                return new KafkaSecurity.Options(intentProducers, readers, tls);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
    }

    /** A lifetime: a positive number of seconds, minutes, hours or days ({@code 90s}, {@code 30m}, {@code 1h}, {@code 7d}). */
    static final class Lifetime implements CommandLine.ITypeConverter<Duration> {

        @Override
        public Duration convert(String value) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("([1-9][0-9]{0,8})([smhd])").matcher(value.trim());
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a lifetime such as 90s, 30m, 1h or 7d");
            }
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
    }

    /** {@code ironflow token --user NAME}: a fresh jwt for one of the stack's generated users, on stdout. */
    @Command(name = "token", mixinStandardHelpOptions = true,
            description = {"Prints a fresh bearer token for a user ./ironflow up --auth jwt generated (admin, reader, member,",
                    "ironflow-service), signed with the data directory's key (DIR/auth/jwt-private.pem, 0600). The token is",
                    "printed on stdout and nowhere else: e.g. OS_TOKEN=$(./ironflow token --user admin)."})
    static final class Token implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--data-dir", paramLabel = "DIR", description = "The stack's data directory (default: .ironflow in the repository).")
        Path dataDir;

        @Option(names = "--user", paramLabel = "NAME", required = true, description = "Whose token: admin, reader, member or ironflow-service.")
        String user;

        @Option(names = "--lifetime", paramLabel = "D", defaultValue = "1h", converter = Lifetime.class,
                description = "How long it is valid, e.g. 30m, 1h, 7d (default: ${DEFAULT-VALUE}).")
        Duration lifetime;

        @Override
        public Integer call() {
            Path data = dataDir != null ? dataDir.toAbsolutePath().normalize() : StackOptions.defaultHome().resolve(".ironflow");
            String token;
            try {
                token = StackAuth.mint(data, user, lifetime);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            spec.commandLine().getOut().println(token);
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /**
     * {@code ironflow intent-key --name NAME ...}: a signing key for an external intent producer, trusted by the
     * stack's conductors at once (they read the trusted-keys file again), limited to the principals named.
     */
    @Command(name = "intent-key", mixinStandardHelpOptions = true,
            description = {"Makes an Ed25519 intent-signing key for a producer that sends intents to Kafka itself (docs/intents.md):",
                    "its private half in DIR/intent-keys/NAME.jwk (0600, for that producer only), its public half added to the",
                    "conductors' DIR/intent-keys/trusted-keys.jwks, bound to the users, roles and projects given. Running",
                    "conductors trust it at once. Prints the private key's path. An existing NAME is kept as it is."})
    static final class IntentKey implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--data-dir", paramLabel = "DIR", description = "The stack's data directory (default: .ironflow in the repository).")
        Path dataDir;

        @Option(names = "--name", paramLabel = "NAME", required = true, description = "The producer's name: lower-case letters, digits, '-'.")
        String name;

        @Option(names = "--user", paramLabel = "USER", required = true,
                description = "A user it may sign for (repeat; * for any user but Ironflow's own services).")
        List<String> users;

        @Option(names = "--role", paramLabel = "ROLE", required = true, description = "A role it may carry (repeat; * for any).")
        List<String> roles;

        @Option(names = "--project", paramLabel = "ID", description = "A project it may sign for (repeat; * for any; none: no project).")
        List<String> projects = List.of();

        @Option(names = "--system-scope", description = "It may carry system scope (default: no).")
        boolean systemScope;

        @Override
        public Integer call() {
            Path data = dataDir != null ? dataDir.toAbsolutePath().normalize() : StackOptions.defaultHome().resolve(".ironflow");
            Path key;
            try {
                key = IntentKeyring.at(data.resolve("intent-keys")).signingKey(name,
                        new KeyBinding(Set.copyOf(users), Set.copyOf(roles), Set.copyOf(projects), systemScope));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            spec.commandLine().getOut().println(key);
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code ironflow watch [TOPIC]}. */
    @Command(name = "watch", mixinStandardHelpOptions = true,
            description = {"Prints a topic from its beginning, then as it grows.",
                    "Values are Avro decoded through the registry. Reads 127.0.0.1:9092 and the registry on 18081; IRONFLOW_JAVA_OPTS='-Dironflow.kafka=HOST:PORT",
                    "-Dironflow.registry=URL' for others."})
    static final class Watch implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(arity = "0..1", paramLabel = "TOPIC", defaultValue = "ironflow.node-state",
                description = "The topic (default: ${DEFAULT-VALUE}, every node's latest state).")
        String topic;

        @Option(names = "--data-dir", paramLabel = "DIR", description = "The stack's data directory: after --secure, its "
                + "secrets/dashboard.properties has the read-only Kafka and registry login (default: .ironflow in the repository).")
        Path dataDir;

        @Override
        public Integer call() {
            if (Topic.all().stream().noneMatch(t -> t.topicName().equals(topic))) {
                throw new CommandLine.ParameterException(spec.commandLine(), "no such topic " + topic + "; Ironflow's are "
                        + Topic.all().stream().map(Topic::topicName).toList());
            }
            Path data = dataDir != null ? dataDir : StackOptions.defaultHome().resolve(".ironflow");
            WatchTopic.watch(topic, StackSecrets.kafkaReader(data));
            return 0;
        }
    }

    /** {@code ironflow bench}. */
    @Command(name = "bench", mixinStandardHelpOptions = true,
            description = {"Benchmarks a running stack: actions/s and latency over whole node lives.",
                    "Fresh fake-hardware nodes go create, manage, provide, active, deleted, DELETE over the REST API."})
    static final class Bench implements Callable<Integer> {

        @Option(names = "--nodes", paramLabel = "N", defaultValue = "1000", description = "Nodes per round (default: ${DEFAULT-VALUE}).")
        int nodes;

        @Option(names = "--clients", paramLabel = "C", defaultValue = "32", description = "Concurrent clients (default: ${DEFAULT-VALUE}).")
        int clients;

        @Option(names = "--warmup", paramLabel = "R", defaultValue = "5", converter = Warmup.Converter.class,
                description = {"Warm-up rounds before the measured one (default: ${DEFAULT-VALUE}), or auto: until a round",
                        "whose JIT compiling took under 5 %% of the stack's CPU (2 to 30 rounds)."})
        Warmup warmup;

        @Option(names = "--deadline", paramLabel = "SECONDS", defaultValue = "60", description = "Deadline per action (default: ${DEFAULT-VALUE}).")
        int deadline;

        @Option(names = "--api", paramLabel = "URL",
                description = "The API (default: http://127.0.0.1:6385, plus --port-offset).")
        String api;

        @Option(names = "--port-offset", paramLabel = "N", defaultValue = "0",
                description = "Every default port plus N: the stack's own with --fresh-stack, the API's otherwise (default: ${DEFAULT-VALUE}).")
        int portOffset;

        @Option(names = "--fresh-stack", paramLabel = "DIR",
                description = "Start a fresh stack on the new data directory DIR for this run (./ironflow up), stop it after.")
        Path freshStack;

        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "The running stack's data directory, where --scale finds the database password (default: .ironflow in the repository).")
        Path dataDir;

        @Option(names = "--profile", paramLabel = "DIR",
                description = "After the measured round, profile one more (async-profiler) into DIR and print where each JVM's CPU goes.")
        Path profile;

        @Option(names = "--scale", paramLabel = "FLEET",
                description = {"Then top the node table up to FLEET nodes, time the list queries, and run rounds with 1, 2",
                        "and 3 conductors in the group, one killed and one joining mid-round (see README)."})
        Integer scale;

        @Override
        public Integer call() throws Exception {
            String url = api != null ? api : FreshStack.api(portOffset);
            if (freshStack == null) {
                Path data = dataDir != null ? dataDir : StackOptions.defaultHome().resolve(".ironflow");
                Benchmark.run(url, nodes, clients, warmup, deadline, profile, scale == null ? null
                        : new Benchmark.Scale(scale, portOffset, Path.of(System.getProperty("java.io.tmpdir")), data));
                return 0;
            }
            try (FreshStack stack = FreshStack.start(freshStack, portOffset)) {
                Benchmark.run(FreshStack.api(portOffset), nodes, clients, warmup, deadline, profile, scale == null ? null
                        : new Benchmark.Scale(scale, portOffset, freshStack.toAbsolutePath().resolve("logs"),
                                freshStack.toAbsolutePath()));
            }
            return 0;
        }
    }

    /** {@code ironflow bench-list}. */
    @Command(name = "bench-list", mixinStandardHelpOptions = true,
            description = {"Benchmarks node listing at fleet size.",
                    "Tops the node table up to N nodes, then times the API's list queries."})
    static final class BenchList implements Callable<Integer> {

        @Option(names = "--nodes", paramLabel = "N", defaultValue = "100000", description = "Fleet size (default: ${DEFAULT-VALUE}).")
        int nodes;

        @Option(names = "--requests", paramLabel = "R", defaultValue = "500", description = "Requests per query (default: ${DEFAULT-VALUE}).")
        int requests;

        @Option(names = "--api", paramLabel = "URL", defaultValue = "http://127.0.0.1:6385", description = "The API (default: ${DEFAULT-VALUE}).")
        String api;

        @Option(names = "--jdbc", paramLabel = "URL", defaultValue = "jdbc:postgresql://127.0.0.1:15432/ironflow",
                description = "The node database (default: ${DEFAULT-VALUE}).")
        String jdbc;

        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "The stack's data directory, whose secrets/database.properties has the database password (default: .ironflow in the repository).")
        Path dataDir;

        @Option(names = "--cleanup", description = "Delete the rows this benchmark added, and stop.")
        boolean cleanup;

        @Override
        public Integer call() throws Exception {
            Path data = dataDir != null ? dataDir : StackOptions.defaultHome().resolve(".ironflow");
            ListBenchmark.run(nodes, requests, api, jdbc, StackSecrets.databaseOwnerPassword(data), cleanup);
            return 0;
        }
    }

    /** {@code ironflow oneview-migrate [--dry-run]}. */
    @Command(name = "oneview-migrate", mixinStandardHelpOptions = true,
            description = {"Migrates oneview nodes from pre-allocation (driver_info.dynamic_allocation=false) to dynamic allocation.",
                    "The oneview-allocator does it: active nodes get applied_server_profile_uri (their profile becomes Ironflow's),",
                    "available ones have their server profile removed; both then get dynamic_allocation=true. Other states are",
                    "left for a later run. Exit 1 if a node was skipped."})
    static final class OneViewMigrateCommand implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--dry-run", description = "Print the plan from OneView's current state; change nothing.")
        boolean dryRun;

        @Option(names = "--allocator", paramLabel = "URL", defaultValue = "http://127.0.0.1:6387",
                description = "The oneview-allocator (default: ${DEFAULT-VALUE}).")
        java.net.URI allocator;

        @Option(names = "--deadline", paramLabel = "SECONDS", defaultValue = "600",
                description = "How long to wait for the whole migration (default: ${DEFAULT-VALUE}).")
        int deadline;

        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "The stack's data directory: with --auth, its generated admin is used (default: .ironflow in the repository).")
        Path dataDir;

        @Override
        public Integer call() {
            Path data = dataDir != null ? dataDir : StackOptions.defaultHome().resolve(".ironflow");
            return OneViewMigrate.run(allocator, dryRun, Duration.ofSeconds(deadline),
                    StackSecrets.adminAuthorization(data).orElse(null), spec.commandLine().getOut(), spec.commandLine().getErr());
        }
    }
}
