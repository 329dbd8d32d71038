package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.EmbeddedPostgresServer;
import io.ironflow.deploy.infra.EtcdCluster;
import io.ironflow.deploy.infra.Infrastructure;
import io.ironflow.deploy.infra.IntentKeyring;
import io.ironflow.deploy.infra.KafkaSecurity;
import io.ironflow.deploy.testing.TestDirectories;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.common.utils.Exit;

/**
 * {@code ironflow up}: starts Kafka, PostgreSQL and the schema registry, then the four services and the live
 * dashboard as separate processes, waits until each is ready, prints every endpoint, and on Ctrl-C stops everything it started.
 * Everything it keeps lives under one data directory, so a restart finds the same nodes. Once up, each service
 * is supervised: restarted with backoff when it exits or its liveness stays down (see {@link Supervisor}).
 */
public final class LocalStack {

    private static final Duration SERVICE_START = Duration.ofSeconds(120);
    private static final String KUBE_MOCK = "kube-mock";
    /**
     * Every service's environment: glibc gives each thread that allocates its own malloc arena (up to 8 per core,
     * 64 MB reserved each, partly resident and fragmented); the JVM's native allocations are few, so two suffice.
     */
    static final Map<String, String> MEMORY_ENVIRONMENT = Map.of("MALLOC_ARENA_MAX", "2");
    /** The OneView simulator's seeded administrator password (deploy/oneview-simulator's inventory.json): a stand-in's. */
    private static final String SIMULATOR_PASSWORD = "ironflow";

    private final StackOptions options;
    private final List<Supervisor> services = new ArrayList<>();
    private Infrastructure infrastructure;
    private EtcdCluster etcd;
    private StackAuth auth;
    private volatile boolean stopping;
    /**
     * Held by the start-up while it starts children: a stop (Ctrl-C) waits for the step under way, so that no child
     * is started after the stop has closed what it knew of (a registry JVM or a service left running).
     */
    private final ReentrantLock starting = new ReentrantLock();
    private volatile boolean stopRequested;

    private LocalStack(StackOptions options) {
        this.options = options;
    }

    /** {@code ironflow up} as a main class of its own (tests start it so): the same as {@code ironflow up ARGS}. */
    public static void main(String[] args) {
        String[] up = new String[args.length + 1];
        up[0] = "up";
        System.arraycopy(args, 0, up, 1, args.length);
        System.exit(IronflowCli.run(up));
    }

    /** Starts the stack {@code options} describe and returns once it has stopped (Ctrl-C); refuses a taken data directory or port. */
    static void up(StackOptions options) throws Exception {
        Files.createDirectories(options.dataDir());
        // Everything the stack writes stays in its data directory, the child JVMs' temp files included
        // (./ironflow starts this JVM with its temp directory there too).
        System.setProperty("java.io.tmpdir", Files.createDirectories(options.dataDir().resolve("tmp")).toString());
        try (RandomAccessFile lockFile = new RandomAccessFile(options.dataDir().resolve("ironflow.lock").toFile(), "rw");
                FileLock lock = lockFile.getChannel().tryLock()) {
            if (lock == null) {
                fail("Ironflow is already running with data directory " + options.dataDir()
                        + " (pid " + readPid(options.dataDir()) + "); stop it with Ctrl-C first.");
            }
            Files.writeString(options.dataDir().resolve("ironflow.pid"), String.valueOf(ProcessHandle.current().pid()));
            String busy = options.firstPortInUse();
            if (busy != null) {
                fail(busy);
            }
            new LocalStack(options).run();
        }
    }

    private void run() throws Exception {
        long started = System.nanoTime();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopRequested = true;
            starting.lock();
            try {
                stop();
            } finally {
                starting.unlock();
            }
            stopped.countDown();
        }, "ironflow-stop"));
        // A fatal broker fault halts the JVM, which skips shutdown hooks: stop the children first.
        Exit.setHaltProcedure((status, message) -> {
            System.err.println("ironflow: Kafka halted: " + message);
            stop();
            Runtime.getRuntime().halt(status);
        });
        Exception failed = null;
        starting.lock();
        try {
            System.out.println("Starting Kafka, PostgreSQL and the schema registry under " + options.dataDir() + " ...");
            auth = StackAuth.prepare(options.auth(), options.dataDir(), options.usersFile(), options.rolesFile(),
                    options.tokenLifetime());
            auth.keepServiceTokenFresh();
            infrastructure = Infrastructure.start(options.infrastructureSettings(), options.secure());
            // The conductor migrates the database the other services read, so it goes first; the OneView
            // simulator stands for an appliance that is there before the allocator.
            if (!stopRequested) {
                startServices(List.of(StackOptions.CONDUCTOR, StackOptions.ONEVIEW_SIMULATOR));
            }
            if (!stopRequested) {
                startServices(List.of(StackOptions.API, StackOptions.ONEVIEW, StackOptions.TEARDOWN,
                        StackOptions.DASHBOARD));
            }
            // The orchestrator needs its peers only once asked to tear down; started last, the etcd members'
            // many peer connections take their local ports after every service holds its own.
            if (!stopRequested) {
                startTeardownPeers();
            }
        } catch (Exception e) {
            failed = e;
        } finally {
            starting.unlock();
        }
        if (stopRequested) {
            stopped.await(); // the stop closes whatever was started; the JVM exits after it
            return;
        }
        if (failed != null) {
            // outside the lock: exiting runs the stop, which takes it
            System.err.println("ironflow: " + failed.getMessage());
            stop();
            System.exit(1);
        }
        printEndpoints(Duration.ofNanos(System.nanoTime() - started));
        synchronized (services) {
            services.forEach(Supervisor::supervise);
        }
        stopped.await();
    }

    /**
     * The JVM flags of service {@code name}; IRONFLOW_SERVICE_JAVA_OPTS adds to them (and wins where they
     * overlap). A bounded heap and the serial collector keep each service's RSS small (G1's regions and
     * remembered sets cost tens of MB, and on two cores its concurrent threads only compete with the work);
     * AppCDS or the AOT cache (see {@link AppCds}) shortens start-up. {@code -Xms32m}: without it the JVM's
     * initial heap is 1/64 of the machine's memory, capped at the maximum, so on a 24 GiB box the whole 256 MB
     * heap is committed from the start; from 32 MB the serial collector grows the heap only as far as the live
     * data asks. {@code -XX:TrimNativeHeapInterval=5000}: every 5 s the JVM hands the malloc memory it has freed
     * (the JIT compilers' arenas peak at tens of MB) back to the OS. The API's young generation is 48 MB: from
     * {@code -Xms32m} a young generation is about 11 MB, so a 1,000-node page's garbage was promoted, and full
     * collections made the p99 of listing 100,000 nodes 60-85 ms instead of 25-35 ms (docs/performance.md,
     * "Resident memory"). The conductor's is 32 MB: in 11 MB its survivor spaces (1 MB) overflowed at every young
     * collection, about 13 a second under load, so whatever an intent or a history batch held across one was
     * promoted, and the serial collector grew the old generation towards the whole heap instead of collecting it
     * (docs/performance.md, "Fuller fetches off the intent path"). Every JVM off the intent path (the allocator,
     * the teardown orchestrator, the dashboard, the simulator, the Kubernetes stand-in) compiles with C1 only: each
     * spends a few hundredths of a CPU-ms per action, and C2 spent seconds of both cores compiling them while the
     * first round ran (docs/performance.md, "C1 for the JVMs off the intent path").
     */
    static List<String> serviceJvmOptions(String name, Path jar) {
        List<String> options = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TrimNativeHeapInterval=5000"));
        // The API's and the conductor's initial heaps hold their young generation and room for an old one: a
        // young generation as large as the initial heap is cut to fit it (the JVM warns), and an AOT cache's
        // archived objects, loaded into the old generation at start, would find none.
        options.addAll(switch (name) {
            case StackOptions.API -> List.of("-Xms80m", "-Xmn48m");
            case StackOptions.CONDUCTOR -> List.of("-Xms56m", "-Xmn32m");
            default -> List.of("-Xms32m", "-XX:TieredStopAtLevel=1");
        });
        String extra = System.getenv("IRONFLOW_SERVICE_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            options.addAll(List.of(extra.trim().split("\\s+")));
        }
        // Last, and keyed by every flag before it: an archive is only used by a JVM started as its writer was.
        options.addAll(AppCds.options(jar, options));
        return options;
    }

    private void startServices(List<String> names) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(names.size());
        try {
            List<Future<ChildJvm>> starting = new ArrayList<>();
            for (String name : names) {
                Supervisor supervisor = new Supervisor(name, () -> ChildJvm.start(name, options.serviceJar(name),
                        serviceJvmOptions(name, options.serviceJar(name)), serviceConfig(name), serviceEnvironment(name), options.dataDir().resolve("logs").resolve(name + ".log")),
                        URI.create("http://127.0.0.1:" + options.port(name) + "/q/health/live"),
                        Supervisor.Policy.of(options.livenessTimeout()), line -> {
                            System.err.println(line);
                            System.err.flush();
                        });
                synchronized (services) {
                    services.add(supervisor);
                }
                ChildJvm jvm = supervisor.start();
                starting.add(pool.submit(() -> jvm.awaitReady(
                        URI.create("http://127.0.0.1:" + options.port(name) + "/q/health/ready"), SERVICE_START)));
            }
            for (Future<ChildJvm> future : starting) {
                awaitUnlessStopped(future);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waits for a service to be ready, or only until a stop is requested: the stop waits for the start-up's
     * lock, and a Ctrl-C should not wait out a readiness timeout. The stop ends the service either way.
     */
    private void awaitUnlessStopped(Future<ChildJvm> ready) throws Exception {
        while (!stopRequested) {
            try {
                ready.get(250, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException notYet) {
                // poll stopRequested again
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }

    /**
     * The teardown-orchestrator's peers: the Kubernetes API stand-in (supervised like a service, seeded with
     * nodes node-0..2 and their pods) and a three-member etcd named after those nodes. Both start fresh with each
     * {@code up}: they stand in for a site's cluster, which Ironflow does not own.
     */
    private void startTeardownPeers() throws IOException {
        Path etcdDir = options.dataDir().resolve("etcd");
        TestDirectories.deleteRecursively(etcdDir);
        Files.createDirectories(etcdDir);
        etcd = EtcdCluster.start(etcdDir, options.etcdMembers());
        URI nodes = URI.create("http://127.0.0.1:" + options.port(StackOptions.KUBERNETES) + "/api/v1/nodes");
        Supervisor kubeMock = new Supervisor(KUBE_MOCK, () -> ChildJvm.start(KUBE_MOCK, options.kubeMockJar(),
                serviceJvmOptions(KUBE_MOCK, options.kubeMockJar()),
                Map.of("kube-mock.port", String.valueOf(options.port(StackOptions.KUBERNETES)),
                        "kube-mock.seed", options.kubeMockSeed().toString()),
                options.dataDir().resolve("logs").resolve(KUBE_MOCK + ".log")), nodes,
                Supervisor.Policy.of(options.livenessTimeout()), line -> {
                    System.err.println(line);
                    System.err.flush();
                });
        synchronized (services) {
            services.add(kubeMock);
        }
        kubeMock.start().awaitReady(nodes, SERVICE_START);
    }

    /**
     * A service's secrets, only those it uses: its own database role's password (the API's read-only role, the
     * owner for the conductor, the teardown orchestrator's role; none for the allocator, which has no database), the
     * teardown orchestrator's API account, the allocator's OneView's.
     */
    private Map<String, String> serviceEnvironment(String name) {
        String role = switch (name) {
            case StackOptions.API -> EmbeddedPostgresServer.READER_PASSWORD;
            case StackOptions.CONDUCTOR -> EmbeddedPostgresServer.OWNER_PASSWORD;
            case StackOptions.TEARDOWN -> EmbeddedPostgresServer.TEARDOWN_PASSWORD;
            default -> null;
        };
        Map<String, String> environment = new LinkedHashMap<>(MEMORY_ENVIRONMENT);
        infrastructure.serviceEnvironment().forEach((variable, value) -> {
            if (role != null && variable.equals(Infrastructure.environmentVariable(role))) {
                environment.put(variable, value);
            }
        });
        if (name.equals(StackOptions.TEARDOWN)) {
            environment.putAll(auth.serviceEnvironment());
        }
        if (name.equals(StackOptions.ONEVIEW)) {
            // the stack's OneView is the simulator, whose seeded administrator this is (a real appliance's comes from
            // the operator's environment or config)
            environment.put("IRONFLOW_ONEVIEW_PASSWORD", SIMULATOR_PASSWORD);
        }
        return environment;
    }

    private Map<String, String> serviceConfig(String name) throws IOException {
        Map<String, String> config = new LinkedHashMap<>(infrastructure.serviceConfig());
        String principal = StackOptions.kafkaPrincipal(name);
        if (options.secure() != null && principal != null) {
            // The service's credentials go in a file only its owner reads, never on its command line.
            Map<String, String> secrets = new LinkedHashMap<>(infrastructure.serviceConfig(principal));
            secrets.keySet().removeAll(config.keySet());
            config.put("quarkus.config.locations", writeSecrets(name, secrets).toString());
        }
        config.put("quarkus.http.port", String.valueOf(options.port(name)));
        config.putAll(intentKeys(name));
        if (name.equals(StackOptions.API) || name.equals(StackOptions.CONDUCTOR) || name.equals(StackOptions.TEARDOWN)
                || name.equals(StackOptions.ONEVIEW) || name.equals(StackOptions.DASHBOARD)) {
            config.putAll(auth.serviceConfig()); // every service's HTTP port but health is authenticated alike
        }
        if (name.equals(StackOptions.TEARDOWN)) {
            config.put("ironflow.teardown.kubernetes.url", "http://127.0.0.1:" + options.port(StackOptions.KUBERNETES));
            config.put("ironflow.teardown.etcd.endpoints", String.join(",",
                    options.etcdMembers().stream().map(EtcdCluster.Member::clientUrl).toList()));
            config.put("ironflow.teardown.ironflow-api.url", "http://127.0.0.1:" + options.port(StackOptions.API));
            // One orchestrator per stack, restarted only once the last one has gone (Supervisor): under one name its
            // leases are its own again at once, so a restarted instance resumes its actions instead of waiting out
            // the dead one's lease-ttl.
            config.put("ironflow.teardown.instance-id", "ironflow-up:" + StackOptions.TEARDOWN);
        }
        config.put("java.io.tmpdir", System.getProperty("java.io.tmpdir"));
        if (name.equals(StackOptions.ONEVIEW_SIMULATOR)) {
            // Like a real appliance, the simulator keeps its state across its own restarts (and the stack's).
            config.put("oneview.simulator.data-dir", options.dataDir().resolve("oneview-simulator").toString());
        }
        // The allocator talks to the stack's OneView simulator.
        config.put("ironflow.oneview.url", "http://127.0.0.1:" + options.port(StackOptions.ONEVIEW_SIMULATOR));
        return config;
    }

    /**
     * The intent keys a service uses: the conductor trusts the data directory's keyring; the API, the allocator and
     * the teardown orchestrator each sign with a key of their own, made at the stack's first start, the API's bound
     * to any caller but the services, each service's to itself (docs/intents.md). All are made before the first
     * service starts, so no conductor ever waits for a sender's key.
     */
    private Map<String, String> intentKeys(String name) {
        IntentKeyring keyring = IntentKeyring.at(options.dataDir().resolve("intent-keys"));
        Map<String, Path> signing = Map.of(
                StackOptions.API, keyring.signingKey(StackOptions.API, IntentKeyring.API),
                StackOptions.ONEVIEW, keyring.signingKey(StackOptions.ONEVIEW, IntentKeyring.service(StackOptions.ONEVIEW)),
                StackOptions.TEARDOWN, keyring.signingKey(StackOptions.TEARDOWN, IntentKeyring.service(StackOptions.TEARDOWN)));
        if (name.equals(StackOptions.CONDUCTOR)) {
            return Map.of("ironflow.intents.trusted-keys", keyring.trustedKeys().toAbsolutePath().toString());
        }
        return signing.containsKey(name) ? Map.of("ironflow.intents.signing-key", signing.get(name).toAbsolutePath().toString()) : Map.of();
    }

    /** {@code secrets} as {@code DATA/secrets/<service>.properties}, mode 0600, for the service to read as configuration. */
    private Path writeSecrets(String service, Map<String, String> secrets) throws IOException {
        java.util.Properties properties = new java.util.Properties();
        properties.putAll(secrets);
        Path file = options.dataDir().resolve("secrets").resolve(service + ".properties").toAbsolutePath();
        KafkaSecurity.writePrivately(file, properties, service + "'s Kafka and registry credentials (ironflow up --secure)");
        return file;
    }

    private void printEndpoints(Duration took) {
        String registry = infrastructure.registry().apiUrl();
        System.out.printf("""

                Ironflow is up in %.1f s. Data: %s, logs: %s
                  API (Ironic v1)        http://127.0.0.1:%d/v1
                  Authentication         %s
                  api-service            http://127.0.0.1:%d/q/health
                  conductor-service      http://127.0.0.1:%d/q/health
                  oneview-allocator      http://127.0.0.1:%d/q/health
                  teardown-orchestrator  http://127.0.0.1:%d/api/v1.0 (health /q/health)
                  OneView simulator      http://127.0.0.1:%d/rest (user administrator, password ironflow; admin API /admin)
                  Dashboard (live)       http://127.0.0.1:%d/
                  Kubernetes stand-in    http://127.0.0.1:%d (kubectl --server http://127.0.0.1:%d)
                  etcd (node-0..2)       %s
                  Kafka bootstrap        %s%s
                  Schema registry        %s (Confluent API: %s)%s
                  PostgreSQL             %s (a role per service; passwords in %s)
                Press Ctrl-C to stop.
                """,
                took.toMillis() / 1000.0, options.dataDir(), options.dataDir().resolve("logs"),
                options.port(StackOptions.API), auth.describe(), options.port(StackOptions.API), options.port(StackOptions.CONDUCTOR),
                options.port(StackOptions.ONEVIEW), options.port(StackOptions.TEARDOWN),
                options.port(StackOptions.ONEVIEW_SIMULATOR), options.port(StackOptions.DASHBOARD),
                options.port(StackOptions.KUBERNETES), options.port(StackOptions.KUBERNETES),
                String.join(",", options.etcdMembers().stream().map(EtcdCluster.Member::clientUrl).toList()),
                infrastructure.kafka().bootstrapServers(), kafkaSecurityNote(), registry, infrastructure.registry().ccompatUrl(),
                options.secure() == null ? "" : " (basic auth: the same users and passwords)",
                infrastructure.postgres().jdbcUrl(), infrastructure.postgres().secretsFile());
        System.out.flush();
    }

    /** In the secure stack: how clients log in and where their passwords are (never the passwords themselves). */
    private String kafkaSecurityNote() {
        KafkaSecurity security = infrastructure.kafka().security();
        if (security == null) {
            return "";
        }
        return " (" + security.protocol() + ", SCRAM-SHA-512; one user per service, passwords in "
                + security.credentialsFile() + ")";
    }

    private void stop() {
        if (stopping) {
            return;
        }
        stopping = true;
        System.out.println("Stopping Ironflow ...");
        List<Supervisor> running;
        synchronized (services) {
            running = new ArrayList<>(services);
        }
        // Ctrl-C reaches the services too: all are unsupervised at once, before any is waited for. Then all are
        // stopped at once, a thread each (a parallel stream runs two at a time on two cores, and a JVM writing
        // its AOT cache at exit takes most of a minute).
        running.forEach(Supervisor::stopSupervising);
        ExecutorService closing = Executors.newCachedThreadPool();
        running.forEach(service -> closing.execute(service::close));
        closing.shutdown();
        try {
            closing.awaitTermination(5, TimeUnit.MINUTES); // each close kills its JVM within its own grace
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (etcd != null) {
            etcd.close();
        }
        if (infrastructure != null) {
            infrastructure.close();
        }
        // What a start-up cut short by the stop left without a handle: zonky registers a shutdown hook when it has
        // started PostgreSQL, which a stopping JVM refuses, so the server runs on and its start fails.
        List<ProcessHandle> children = ProcessHandle.current().children().toList();
        children.forEach(ProcessHandle::destroy);
        // a pg_ctl cut short may be forking its server: once it is gone, any server it started is found
        children.forEach(child -> child.onExit().completeOnTimeout(child, 10, TimeUnit.SECONDS).join());
        EmbeddedPostgresServer.stopLeftOver(options.dataDir().resolve("postgres"), Duration.ofSeconds(30));
        System.out.println("Ironflow stopped.");
        System.out.flush();
    }

    private static String readPid(Path dataDir) {
        try {
            return Files.readString(dataDir.resolve("ironflow.pid"), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void fail(String message) {
        System.err.println("ironflow: " + message);
        System.exit(1);
    }
}
