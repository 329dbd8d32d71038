package io.ironflow.deploy.infra;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.resource.ResourcePatternFilter;

/**
 * Kafka's and the registry's security in the secure stack, and the one place that builds the clients' security
 * settings. Each principal ({@link KafkaAccess}) has a random password, made once per data directory and kept in
 * {@link #credentialsFile} (mode 0600, never printed); the registry knows the same users with the same passwords.
 * The broker authenticates clients with SASL/SCRAM-SHA-512 (SASL_PLAINTEXT on loopback, SASL_SSL when a key store
 * is given) and authorizes them by {@link KafkaAccess}'s ACLs; its client listener takes nothing but SCRAM. The
 * launcher's own super user, {@value #ADMIN}, logs in with SASL/PLAIN on a separate listener, {@value #INTERNAL},
 * bound to 127.0.0.1 and named in no client's configuration: the broker's inter-broker and controller traffic and
 * the launcher's admin client. Why PLAIN there and not SCRAM: a SCRAM credential lives in the metadata log, and the
 * super user must log in before it can create any. A new data directory could get it at format time
 * ({@code kafka-storage format --add-scram}), but a data directory first run open (formatted without it) cannot,
 * and the broker itself must authenticate before it serves anything. PLAIN's one user and password are in the
 * broker's in-memory configuration (never in the formatted storage), so every start works, and confining PLAIN to
 * a loopback listener of its own keeps it off the port clients use.
 */
public final class KafkaSecurity {

    /** The launcher's super user: creates topics, SCRAM users and ACLs, and registers schemas. */
    public static final String ADMIN = "ironflow-admin";
    public static final String SCRAM = "SCRAM-SHA-512";
    /** The listener of the super user's PLAIN logins: loopback, the broker's own traffic and the launcher's admin. */
    public static final String INTERNAL = "INTERNAL";

    /** TLS for the client listener: a PKCS12 key store for the broker, a trust store for the clients. */
    public record Tls(Path keyStore, String keyStorePassword, Path trustStore, String trustStorePassword) {

        @Override
        public String toString() { // a record would print the passwords
            return "Tls[keyStore=" + keyStore + ", trustStore=" + trustStore + "]";
        }
    }

    /** What the secure stack was asked for: external principals and, optionally, TLS. */
    public record Options(List<String> intentProducers, List<String> readers, Tls tls) {

        /** Principal names are plain words: they go into JAAS lines, ACLs and the registry's user list as they are. */
        public Options {
            intentProducers = List.copyOf(intentProducers);
            readers = List.copyOf(readers);
            for (String user : concat(intentProducers, readers)) {
                if (!user.matches("[A-Za-z0-9_-]{1,64}")) {
                    throw new IllegalArgumentException("a Kafka principal's name is letters, digits, '-' and '_': '" + user + "'");
                }
                if (user.equals(ADMIN) || KafkaAccess.services().stream().anyMatch(s -> s.user().equals(user))) {
                    throw new IllegalArgumentException("'" + user + "' is one of Ironflow's own Kafka principals");
                }
                // its consumer group is its name: it must not be one of the services' groups
                KafkaAccess.reservedGroup(user).ifPresent(group -> {
                    throw new IllegalArgumentException("'" + user + "' is the name of Ironflow's consumer group " + group);
                });
            }
        }

        private static List<String> concat(List<String> a, List<String> b) {
            List<String> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
        }

        /** The services' principals only, no TLS. */
        public static Options servicesOnly() {
            return new Options(List.of(), List.of(), null);
        }

        List<KafkaAccess> principals() {
            List<KafkaAccess> principals = new ArrayList<>(KafkaAccess.services());
            intentProducers.forEach(user -> principals.add(KafkaAccess.intentProducer(user)));
            readers.forEach(user -> principals.add(KafkaAccess.reader(user)));
            return principals;
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path credentialsFile;
    private final Map<String, String> passwords;
    private final List<KafkaAccess> principals;
    private final List<String> revoked;
    private final Tls tls;

    private KafkaSecurity(Path credentialsFile, Map<String, String> passwords, List<KafkaAccess> principals,
            List<String> revoked, Tls tls) {
        this.credentialsFile = credentialsFile;
        this.passwords = passwords;
        this.principals = principals;
        this.revoked = revoked;
        this.tls = tls;
    }

    /**
     * Reads the passwords kept under {@code dataDir} and makes a random one for every principal that has none yet
     * (so a restart keeps them, and a new external principal gets one). A user kept from an earlier start that is no
     * longer asked for is dropped from the file and, by {@link #apply}, from the broker: it loses its access.
     */
    public static KafkaSecurity prepare(Path dataDir, Options options) throws IOException {
        Path dir = dataDir.resolve("secrets");
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Path file = dir.resolve("kafka-users.properties");
        Properties kept = new Properties();
        if (Files.exists(file)) {
            try (Reader in = Files.newBufferedReader(file)) {
                kept.load(in);
            }
        }
        List<KafkaAccess> principals = options.principals();
        Map<String, String> passwords = new LinkedHashMap<>();
        List<String> users = new ArrayList<>(List.of(ADMIN));
        principals.forEach(p -> users.add(p.user()));
        List<String> revoked = new ArrayList<>();
        for (String user : kept.stringPropertyNames()) {
            if (!users.contains(user)) {
                revoked.add(user);
            }
        }
        revoked.forEach(kept::remove);
        boolean changed = !revoked.isEmpty();
        for (String user : users) {
            String password = kept.getProperty(user);
            if (password == null) {
                password = randomPassword();
                kept.setProperty(user, password);
                changed = true;
            }
            passwords.put(user, password);
        }
        if (changed) {
            writePrivately(file, kept, "Kafka and schema registry users of this data directory (ironflow up --secure)");
        }
        return new KafkaSecurity(file, passwords, principals, List.copyOf(revoked), options.tls());
    }

    /** Writes {@code properties} to {@code file}, readable and writable by its owner only (0600), from the start. */
    public static void writePrivately(Path file, Properties properties, String comment) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".new");
        Files.deleteIfExists(temp);
        Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(temp)) {
            properties.store(out, comment);
        }
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static String randomPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes); // no quotes or backslashes for JAAS
    }

    /** Where the passwords are kept (0600). */
    public Path credentialsFile() {
        return credentialsFile;
    }

    public String password(String user) {
        String password = passwords.get(user);
        if (password == null) {
            throw new IllegalArgumentException("no Kafka principal " + user);
        }
        return password;
    }

    /** Every user and password, for the registry's users. */
    Map<String, String> users() {
        return Map.copyOf(passwords);
    }

    /** Every user's role in the registry: the admin's, and each principal's by what it may do on Kafka. */
    Map<String, RegistryRole> registryRoles() {
        Map<String, RegistryRole> roles = new LinkedHashMap<>();
        roles.put(ADMIN, RegistryRole.ADMIN);
        principals.forEach(principal -> roles.put(principal.user(), RegistryRole.of(principal)));
        return roles;
    }

    /** The security protocol of the client listener. */
    public String protocol() {
        return tls == null ? "SASL_PLAINTEXT" : "SASL_SSL";
    }

    /**
     * The broker's listener and authorizer settings, added to {@link KafkaBroker}'s own: clients on {@code port}
     * (SCRAM only), the super user on {@code internalPort} (PLAIN only), the controller on {@code controllerPort}.
     */
    Map<String, String> brokerProperties(int port, int controllerPort, int internalPort) {
        String listener = protocol();
        String prefix = "listener.name." + listener.toLowerCase() + ".";
        String internal = "listener.name." + INTERNAL.toLowerCase() + ".";
        // the broker's own login, and the one user PLAIN accepts
        String plain = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + ADMIN
                + "\" password=\"" + password(ADMIN) + "\" user_" + ADMIN + "=\"" + password(ADMIN) + "\";";
        Map<String, String> props = new LinkedHashMap<>();
        props.put("listeners", listener + "://127.0.0.1:" + port + "," + INTERNAL + "://127.0.0.1:" + internalPort
                + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", listener + "://127.0.0.1:" + port + "," + INTERNAL + "://127.0.0.1:" + internalPort);
        props.put("inter.broker.listener.name", INTERNAL);
        // The internal and controller listeners stay on loopback without TLS, but never without authentication.
        props.put("listener.security.protocol.map",
                listener + ":" + listener + "," + INTERNAL + ":SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT");
        props.put("sasl.mechanism.controller.protocol", "PLAIN");
        props.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        props.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        props.put("listener.name.controller.plain.sasl.jaas.config", plain);
        props.put(internal + "sasl.enabled.mechanisms", "PLAIN");
        props.put(internal + "plain.sasl.jaas.config", plain);
        // Clients log in with SCRAM, and only with SCRAM.
        props.put(prefix + "sasl.enabled.mechanisms", SCRAM);
        props.put(prefix + SCRAM.toLowerCase() + ".sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        if (tls != null) {
            props.put(prefix + "ssl.keystore.type", "PKCS12");
            props.put(prefix + "ssl.keystore.location", tls.keyStore().toAbsolutePath().toString());
            props.put(prefix + "ssl.keystore.password", tls.keyStorePassword());
        }
        props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        props.put("super.users", "User:" + ADMIN);
        props.put("allow.everyone.if.no.acl.found", "false");
        return props;
    }

    /** The launcher's admin client settings: the super user, over PLAIN, on the {@value #INTERNAL} listener. */
    Map<String, Object> adminProperties() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("security.protocol", "SASL_PLAINTEXT");
        props.put("sasl.mechanism", "PLAIN");
        props.put("sasl.jaas.config", plainJaas(ADMIN, password(ADMIN)));
        return props;
    }

    /**
     * The super user's client configuration, {@link #adminClientConfigFile} (0600, beside the passwords): the
     * {@value #INTERNAL} listener's address of this start and the PLAIN login, as {@code kafka-acls.sh} and the other
     * Kafka tools take it with {@code --command-config}. The operator's one way in as the super user, since the
     * port changes with each start and the client listener refuses PLAIN.
     */
    void writeAdminClientConfig(String bootstrapServers) throws IOException {
        StringBuilder text = new StringBuilder("# The Kafka super user on this start's internal listener (loopback only)\n");
        text.append("bootstrap.servers=").append(bootstrapServers).append('\n');
        adminProperties().forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        SecretFile.writeOwnerOnly(adminClientConfigFile(), text.toString());
    }

    /** Where {@link #writeAdminClientConfig} keeps the super user's client configuration. */
    public Path adminClientConfigFile() {
        return credentialsFile.resolveSibling("kafka-admin.properties");
    }

    /**
     * The settings a Kafka client of {@code user} adds to its bootstrap servers: SASL/SCRAM, and TLS's trust store
     * when the broker speaks TLS. Any password works here; the broker decides.
     */
    public Map<String, Object> clientProperties(String user, String password) {
        Map<String, Object> props = tlsProperties();
        props.put("security.protocol", protocol());
        props.put("sasl.mechanism", SCRAM);
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + password + "\";");
        return props;
    }

    /** The same for one of this data directory's principals. */
    public Map<String, Object> clientProperties(String user) {
        return clientProperties(user, password(user));
    }

    /**
     * A Quarkus service's configuration as {@code user}: every client setting under {@code kafka.} (where Quarkus
     * gathers the settings all its Kafka clients share, from properties or KAFKA_* environment variables), and the
     * registry's basic-auth user under {@code kafka.apicurio.registry.auth.}, which reaches every serializer the same way.
     */
    public Map<String, String> serviceConfig(String user) {
        Map<String, String> config = new LinkedHashMap<>();
        clientProperties(user).forEach((k, v) -> config.put("kafka." + k, String.valueOf(v)));
        config.put("kafka.apicurio.registry.auth.username", user);
        config.put("kafka.apicurio.registry.auth.password", password(user));
        return config;
    }

    private Map<String, Object> tlsProperties() {
        Map<String, Object> props = new LinkedHashMap<>();
        if (tls != null) {
            props.put("ssl.truststore.type", "PKCS12");
            props.put("ssl.truststore.location", tls.trustStore().toAbsolutePath().toString());
            props.put("ssl.truststore.password", tls.trustStorePassword());
        }
        return props;
    }

    private static String plainJaas(String user, String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user + "\" password=\""
                + password + "\";";
    }

    /**
     * Makes the broker's users and ACLs what this table says: every principal gets its SCRAM credential (the kept
     * password) and exactly its ACLs (the ones of an earlier start are replaced, so a right taken out of the table
     * is gone); a revoked user loses its credential and its ACLs.
     */
    void apply(Admin admin) {
        List<UserScramCredentialAlteration> credentials = new ArrayList<>();
        List<AclBindingFilter> stale = new ArrayList<>();
        List<AclBinding> acls = new ArrayList<>();
        for (KafkaAccess principal : principals) {
            credentials.add(new UserScramCredentialUpsertion(principal.user(),
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password(principal.user())));
            stale.add(aclsOf(principal.user()));
            acls.addAll(principal.acls());
        }
        for (String user : revoked) {
            credentials.add(new UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_512));
            stale.add(aclsOf(user));
        }
        try {
            admin.deleteAcls(stale).all().get();
            for (var alteration : admin.alterUserScramCredentials(credentials).values().entrySet()) {
                try {
                    alteration.getValue().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof ResourceNotFoundException)) { // a revoked user already gone
                        throw e;
                    }
                }
            }
            admin.createAcls(acls).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot set Kafka's users and ACLs: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static AclBindingFilter aclsOf(String user) {
        return new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:" + user, null, AclOperation.ANY, AclPermissionType.ANY));
    }
}
