package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.EmbeddedPostgresServer;
import io.ironflow.deploy.infra.Ports;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** The local stack started the way {@code ./ironflow up} starts it: a separate launcher process. */
final class RunningStack implements AutoCloseable {

    final Path dataDir;
    final Map<String, Integer> ports;
    final Process launcher;
    final List<String> output = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> up = new CompletableFuture<>();
    private final CompletableFuture<Void> outputDone = new CompletableFuture<>();

    private RunningStack(Path dataDir, Map<String, Integer> ports, Process launcher) {
        this.dataDir = dataDir;
        this.ports = ports;
        this.launcher = launcher;
        Thread reader = new Thread(this::readOutput, "stack-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Free ports for every component, named by the launcher's flags. */
    static Map<String, Integer> freePorts() throws IOException {
        int[] free = Ports.free(11);
        Map<String, Integer> ports = new LinkedHashMap<>();
        String[] flags = {"api", "conductor", "oneview", "teardown", "oneview-simulator", "dashboard", "kafka",
            "kafka-controller", "postgres", "registry", "kubernetes"};
        for (int i = 0; i < flags.length; i++) {
            ports.put(flags[i], free[i]);
        }
        ports.put("etcd", freeEtcdBase(ports.values()));
        return ports;
    }

    /** A base port N for the stack's etcd whose six ports N..N+5 are all free and none of {@code taken}. */
    static int freeEtcdBase(java.util.Collection<Integer> taken) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = Ports.free(1)[0];
            boolean clear = base + 5 <= 65535;
            for (int port = base; clear && port <= base + 5; port++) {
                clear = !taken.contains(port) && (port == base || !Ports.inUse(port));
            }
            if (clear) {
                return base;
            }
        }
        throw new IOException("no six consecutive free ports for etcd");
    }

    static RunningStack launch(Path dataDir, Map<String, Integer> ports, Map<String, String> environment)
            throws IOException {
        return launch(dataDir, ports, environment, List.of());
    }

    /** The same with more {@code ./ironflow up} arguments ({@code --auth http_basic}, {@code --secure}...). */
    static RunningStack launch(Path dataDir, Map<String, Integer> ports, Map<String, String> environment,
            List<String> arguments) throws IOException {
        // A test's stack lives a minute or two under light load: C2 would spend both cores compiling code the test
        // has finished with (the launcher's broker, the API and the conductor; the other services are C1 already),
        // and C1 alone brings the stack up about 8 s sooner on 2 cores. Semantics do not depend on the JIT.
        List<String> command = new ArrayList<>(List.of(
                // Run it as a terminal's foreground job would run: with SIGINT at its default, even when this
                // test runs where SIGINT is ignored (a background job), so Ctrl-C can be tested for real.
                "perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die", "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + Files.createDirectories(dataDir.resolve("tmp")),
                "-Dironflow.home=" + System.getProperty("ironflow.home"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"),
                LocalStack.class.getName(),
                "--data-dir", dataDir.toString()));
        ports.forEach((flag, port) -> command.addAll(List.of("--" + flag + "-port", String.valueOf(port))));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("IRONFLOW_SERVICE_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
        builder.environment().putAll(environment);
        return new RunningStack(dataDir, ports, builder.start());
    }

    private void readOutput() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                System.out.println("[stack] " + line);
                // the banner's last line: a test that reads the banner right after awaitUp must find all of it
                if (line.startsWith("Press Ctrl-C to stop.")) {
                    up.complete(null);
                }
            }
        } catch (IOException e) {
            // the launcher is gone
        }
        up.completeExceptionally(new IllegalStateException("the stack exited before it was up: " + output));
        outputDone.complete(null);
    }

    RunningStack awaitUp(Duration timeout) throws Exception {
        up.get(timeout.toSeconds(), TimeUnit.SECONDS);
        return this;
    }

    String api() {
        return "http://127.0.0.1:" + ports.get("api");
    }

    String kafka() {
        return "127.0.0.1:" + ports.get("kafka");
    }

    String registry() {
        return "http://127.0.0.1:" + ports.get("registry") + "/apis/registry/v2";
    }

    /** The database owner's password, which the launcher generated for this data directory and printed nowhere. */
    String ownerPassword() throws IOException {
        java.util.Properties secrets = new java.util.Properties();
        try (var in = Files.newBufferedReader(dataDir.resolve("secrets/database.properties"))) {
            secrets.load(in);
        }
        return secrets.getProperty("ironflow.db.owner-password");
    }

    /** A connection to the stack's database as its owner role. */
    java.sql.Connection database() throws Exception {
        return java.sql.DriverManager.getConnection(jdbcUrl(), "ironflow", ownerPassword());
    }

    /** A generated user's password or token ({@code admin.password}, {@code member.token}...) from DATA/auth. */
    String credential(String key) throws IOException {
        java.util.Properties credentials = new java.util.Properties();
        try (var in = Files.newBufferedReader(dataDir.resolve("auth/credentials.properties"))) {
            credentials.load(in);
        }
        String value = credentials.getProperty(key);
        if (value == null) {
            throw new AssertionError("no " + key + " in " + dataDir.resolve("auth/credentials.properties"));
        }
        return value;
    }

    /** The {@code Authorization} header value of a generated http_basic user. */
    String basic(String user) throws IOException {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((user + ":" + credential(user + ".password"))
                .getBytes(StandardCharsets.UTF_8));
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + ports.get("postgres") + "/ironflow";
    }

    /** The service process whose command line names {@code module}. */
    ProcessHandle service(String module) {
        return launcher.descendants()
                .filter(p -> p.info().commandLine().orElse("").contains(module + "/target/quarkus-app"))
                .findFirst().orElseThrow(() -> new AssertionError("no process runs " + module));
    }

    /** Ctrl-C: SIGINT to the launcher; returns its exit code once it and its output have ended. */
    int interrupt(Duration timeout) throws Exception {
        signal("INT", launcher.pid());
        return awaitExit(timeout);
    }

    int awaitExit(Duration timeout) throws Exception {
        if (!launcher.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("the launcher did not stop within " + timeout);
        }
        outputDone.get(10, TimeUnit.SECONDS);
        return launcher.exitValue();
    }

    static void signal(String signal, long pid) throws IOException, InterruptedException {
        int rc = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start().waitFor();
        if (rc != 0) {
            throw new IOException("kill -" + signal + " " + pid + " failed");
        }
    }

    @Override
    public void close() {
        if (launcher.isAlive()) {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
        stopPostgres();
    }

    /** A launcher killed rather than stopped leaves PostgreSQL running: pg_ctl daemonizes it. */
    private void stopPostgres() {
        EmbeddedPostgresServer.stopLeftOver(dataDir.resolve("postgres"), Duration.ZERO);
    }
}
