package io.ironflow.deploy.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * PostgreSQL from Maven-packaged binaries (zonky), no system install. The data directory is kept between runs; the
 * binaries are unpacked once per user and version into {@link #binaries()}, shared by every data directory (zonky
 * locks the unpacking and marks it complete, so concurrent starts wait for one another instead of unpacking twice).
 * It creates the {@value #DATABASE} database, owned by the {@value #OWNER} role the conductor migrates and
 * writes with, the {@value #READER} role the API reads with (granted SELECT by the migrations, nothing more), and
 * the {@value #TEARDOWN} role the teardown orchestrator works with, which owns the {@value #TEARDOWN_SCHEMA} schema
 * and has no right on the conductor's tables. Each service logs in as its own role. Every role,
 * the superuser too, has a random password of this data directory, kept in {@code secrets/database.properties}
 * (0600) and never printed; connections must prove it (scram-sha-256), none is trusted. A data directory made
 * before passwords (trust) is switched over on its first start.
 * <p>
 * A durable server (the local stack's) flushes its WAL at every commit, as a production PostgreSQL does: a commit
 * the conductor acknowledged, and whose outbox rows it may already have published, survives a crash of the
 * server or of the machine. zonky's defaults (fsync off, synchronous_commit off) are kept only for tests' throwaway
 * databases, where they save time and nothing is at stake.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    public static final String DATABASE = "ironflow";
    public static final String OWNER = "ironflow";
    public static final String READER = "ironflow_api";
    public static final String TEARDOWN = "ironflow_teardown";
    /** The teardown orchestrator's schema, owned by {@link #TEARDOWN}. */
    public static final String TEARDOWN_SCHEMA = "teardown";

    /** The configuration keys (and, upper-cased with underscores, environment variables) of the roles' passwords. */
    public static final String OWNER_PASSWORD = "ironflow.db.owner-password";
    public static final String READER_PASSWORD = "ironflow.db.reader-password";
    public static final String TEARDOWN_PASSWORD = "ironflow.db.teardown-password";
    private static final String SUPERUSER = "postgres";
    private static final String SUPERUSER_PASSWORD = "ironflow.db.superuser-password";
    /** Written into PostgreSQL's data directory once its roles have their passwords and trust is gone. */
    private static final String PASSWORDS_SET = "ironflow-passwords-set";
    private static final String SCRAM_ONLY = """
            # Written by Ironflow: every connection proves its role's password.
            local   all   all                  scram-sha-256
            host    all   all   127.0.0.1/32   scram-sha-256
            host    all   all   ::1/128        scram-sha-256
            """;

    /** How long pg_ctl -w waits for a starting server before it gives up (its default). */
    private static final Duration PG_CTL_WAIT = Duration.ofSeconds(60);

    private final EmbeddedPostgres postgres;
    private final SecretFile secrets;
    private final Path data;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, SecretFile secrets, Path data) {
        this.postgres = postgres;
        this.secrets = secrets;
        this.data = data;
    }

    public static EmbeddedPostgresServer start(Path dataDir, int port, boolean durable) throws IOException {
        Path runtime = binaries();
        SecretFile secrets = SecretFile.open(dataDir.resolve("secrets").resolve("database.properties"),
                SUPERUSER_PASSWORD, OWNER_PASSWORD, READER_PASSWORD, TEARDOWN_PASSWORD);
        Path data = dataDir.resolve("postgres");
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                // after zonky's -F (fsync off): a later -c wins
                .setServerConfig("fsync", durable ? "on" : "off")
                .setServerConfig("synchronous_commit", durable ? "on" : "off")
                // unpacking takes ~4 s of CPU: once, not at every fresh data directory's start
                .setOverrideWorkingDirectory(runtime.toFile())
                // zonky's own readiness check logs in as the superuser: with its password once trust is gone
                .setConnectConfig("password", secrets.get(SUPERUSER_PASSWORD))
                // initdb trusts every local connection; once the passwords are set, nothing is trusted again.
                .setDataDirectoryCustomizer(dir -> {
                    if (Files.exists(data.resolve(PASSWORDS_SET))) {
                        writeHba(data);
                    }
                });
        Instant attempt = Instant.now();
        EmbeddedPostgres postgres;
        try {
            postgres = builder.start();
        } catch (IOException | RuntimeException e) {
            stopServerStartedSince(data, attempt);
            throw e;
        }
        EmbeddedPostgresServer server = new EmbeddedPostgresServer(postgres, secrets, data);
        try {
            server.createDatabaseAndRoles(data);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Where the binaries are unpacked: {@code $XDG_CACHE_HOME/ironflow/postgres}, by default
     * {@code ~/.cache/ironflow/postgres} (a cache: removing it costs one more unpacking). Not the system temp
     * directory, which may be mounted noexec or cleaned under a running server. zonky makes its working directory
     * world-writable, so the {@code ironflow} directory above it is the user's alone (0700): nobody else can reach
     * the binaries the stack runs, let alone swap them.
     */
    static Path binaries() throws IOException {
        String cache = System.getenv("XDG_CACHE_HOME");
        Path root = cache == null || cache.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(cache);
        Path ownerOnly = Files.createDirectories(root.resolve("ironflow"));
        Files.setPosixFilePermissions(ownerOnly, PosixFilePermissions.fromString("rwx------"));
        return Files.createDirectories(ownerOnly.resolve("postgres"));
    }

    private void createDatabaseAndRoles(Path data) throws IOException {
        String url = "jdbc:postgresql://127.0.0.1:" + port() + "/postgres";
        try (Connection c = DriverManager.getConnection(url, SUPERUSER, secrets.get(SUPERUSER_PASSWORD));
                Statement s = c.createStatement()) {
            // the passwords are random URL-safe base64: nothing in them needs quoting
            s.execute("ALTER ROLE " + SUPERUSER + " PASSWORD '" + secrets.get(SUPERUSER_PASSWORD) + "'");
            for (String role : new String[] {OWNER, READER, TEARDOWN}) {
                String password = secrets.get(switch (role) {
                    case OWNER -> OWNER_PASSWORD;
                    case READER -> READER_PASSWORD;
                    default -> TEARDOWN_PASSWORD;
                });
                s.execute((exists(s, "SELECT 1 FROM pg_roles WHERE rolname = '" + role + "'") ? "ALTER" : "CREATE")
                        + " ROLE " + role + " LOGIN PASSWORD '" + password + "'");
            }
            if (!exists(s, "SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                s.execute("CREATE DATABASE " + DATABASE + " OWNER " + OWNER);
            }
            giveTheTeardownSchemaToItsRole(jdbcUrl());
            if (!Files.exists(data.resolve(PASSWORDS_SET))) {
                writeHba(data);
                s.execute("SELECT pg_reload_conf()");
                Files.writeString(data.resolve(PASSWORDS_SET), "");
            }
        } catch (SQLException e) {
            throw new IOException("cannot prepare the ironflow database (its passwords are in "
                    + secrets.path() + ")", e);
        }
    }

    /**
     * The teardown orchestrator's schema belongs to its role, made here since that role may create nothing in the
     * database. A data directory from before that role has the schema and its tables owned by {@value #OWNER}
     * (the orchestrator logged in as the owner): they are handed over, so its migrations and work go on.
     */
    private void giveTheTeardownSchemaToItsRole(String databaseUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(databaseUrl, SUPERUSER, secrets.get(SUPERUSER_PASSWORD));
                Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + TEARDOWN_SCHEMA + " AUTHORIZATION " + TEARDOWN);
            s.execute("ALTER SCHEMA " + TEARDOWN_SCHEMA + " OWNER TO " + TEARDOWN);
            s.execute("""
                    DO $$
                    DECLARE r record;
                    BEGIN
                        FOR r IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                 WHERE n.nspname = '%1$s' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
                                   AND pg_get_userbyid(c.relowner) <> '%2$s'
                                   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))
                        LOOP
                            EXECUTE format('ALTER %%s %%I.%%I OWNER TO %2$s',
                                    CASE r.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                                                   WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
                                    '%1$s', r.relname);
                        END LOOP;
                    END
                    $$""".formatted(TEARDOWN_SCHEMA, TEARDOWN));
        }
    }

    private static void writeHba(Path data) {
        try {
            Files.writeString(data.resolve("pg_hba.conf"), SCRAM_ONLY);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The password of {@link #OWNER}, the role that migrates and writes. */
    public String ownerPassword() {
        return secrets.get(OWNER_PASSWORD);
    }

    /** The password of {@link #READER}, the API's read-only role. */
    public String readerPassword() {
        return secrets.get(READER_PASSWORD);
    }

    /** The password of {@link #TEARDOWN}, the teardown orchestrator's role. */
    public String teardownPassword() {
        return secrets.get(TEARDOWN_PASSWORD);
    }

    /** Where this data directory's database passwords are kept (0600). */
    public Path secretsFile() {
        return secrets.path();
    }

    private static boolean exists(Statement s, String query) throws SQLException {
        try (var rs = s.executeQuery(query)) {
            return rs.next();
        }
    }

    public int port() {
        return postgres.getPort();
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE;
    }

    public String reactiveUrl() {
        return "postgresql://127.0.0.1:" + port() + "/" + DATABASE;
    }

    /**
     * After zonky failed to start: stops the server its {@code pg_ctl start} launched since {@code attempt}, if any.
     * zonky registers the shutdown hook that would stop it only after pg_ctl has daemonized it, and during the
     * JVM's shutdown (Ctrl-C while the stack starts) that registration throws: the server would outlive the stack,
     * holding its port and data directory. A server that ran before the attempt (another stack's) is not touched.
     */
    private static void stopServerStartedSince(Path data, Instant attempt) {
        // pg_ctl -w exits once the server is ready or has given up: after that, postmaster.pid names the server
        ProcessHandle.current().children()
                .filter(p -> p.info().command().orElse("").endsWith("pg_ctl"))
                .forEach(p -> p.onExit().completeOnTimeout(p, PG_CTL_WAIT.toSeconds(), TimeUnit.SECONDS).join());
        // start instants come from clock ticks: a second's margin for their rounding
        Instant since = attempt.minusSeconds(1);
        serversOn(data).stream().filter(p -> p.info().startInstant().map(since::isBefore).orElse(false))
                .forEach(server -> stop(server, Duration.ofSeconds(10)));
    }

    /**
     * Stops a server still running on {@code data} (found as {@link #serversOn} finds it) that no
     * EmbeddedPostgresServer holds: SIGTERM, then SIGKILL once {@code grace} has passed. Does nothing when
     * none runs. pg_ctl daemonizes the server, so it is no child of the JVM that started it; its backends
     * follow their postmaster.
     */
    public static void stopLeftOver(Path data, Duration grace) {
        serversOn(data).forEach(server -> stop(server, grace));
    }

    /**
     * The live postmasters of {@code data}: the one its postmaster.pid names, and any postgres started with
     * {@code -D data} (one still starting has written no pid file yet, and a stop must not miss it).
     */
    private static List<ProcessHandle> serversOn(Path data) {
        Set<ProcessHandle> servers = new LinkedHashSet<>();
        try {
            long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            ProcessHandle.of(pid).filter(EmbeddedPostgresServer::isPostgres).ifPresent(servers::add);
        } catch (IOException | RuntimeException e) {
            // no pid file (yet)
        }
        Path dir = data.toAbsolutePath().normalize();
        ProcessHandle.allProcesses().filter(EmbeddedPostgresServer::isPostgres).filter(p -> {
            List<String> args = List.of(p.info().arguments().orElse(new String[0]));
            int d = args.indexOf("-D");
            return d >= 0 && d + 1 < args.size() && Path.of(args.get(d + 1)).toAbsolutePath().normalize().equals(dir);
        }).forEach(servers::add);
        return new ArrayList<>(servers);
    }

    private static boolean isPostgres(ProcessHandle process) {
        return process.info().command().orElse("").endsWith("/postgres");
    }

    /** SIGTERM (the postmaster's smart shutdown), then SIGKILL once {@code grace} has passed. */
    private static void stop(ProcessHandle server, Duration grace) {
        server.destroy();
        try {
            server.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            server.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            server.destroyForcibly();
        }
    }

    /**
     * Stops the server. zonky's close runs once: when its own shutdown hook ran first (Ctrl-C while the server
     * started), its {@code pg_ctl stop} may have found no postmaster.pid yet, failed (zonky only logs it) and left
     * this close nothing to do, with the server then running on. So whatever still runs on the data directory
     * afterwards is stopped too.
     */
    @Override
    public void close() throws IOException {
        try {
            postgres.close();
        } finally {
            stopLeftOver(data, Duration.ofSeconds(10));
        }
    }
}
