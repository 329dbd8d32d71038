package io.ironflow.deploy.infra;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.ironflow.schemas.Topic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

/**
 * Apicurio Registry 2.4 (the {@code deploy/schema-registry} module) as a child JVM, its storage kept under the data
 * directory. Apicurio applies no compatibility rule unless told, so a global BACKWARD rule is set at start-up.
 * Given users (the secure stack's), every path but {@code /health} takes HTTP basic auth of one of them, and each
 * may do only what its {@link RegistryRole} allows: the users and that rule go to the registry in a 0600 file under
 * the data directory, never on its command line.
 */
public final class SchemaRegistry implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final ChildJvm jvm;
    private final int port;
    private final String user;
    private final String password;

    private SchemaRegistry(ChildJvm jvm, int port, String user, String password) {
        this.jvm = jvm;
        this.port = port;
        this.user = user;
        this.password = password;
    }

    /** Starts the registry process without waiting for it; call {@link #awaitReady()} next. */
    public static SchemaRegistry launch(Path jar, Path dataDir, int port) throws IOException {
        return launch(jar, dataDir, port, Map.of(), Map.of(), null);
    }

    /**
     * The same, and when {@code users} (name to password) is not empty, only they may use it, each as its role in
     * {@code roles} allows; this launcher then acts as {@code asUser}.
     */
    public static SchemaRegistry launch(Path jar, Path dataDir, int port, Map<String, String> users,
            Map<String, RegistryRole> roles, String asUser) throws IOException {
        Path storage = dataDir.resolve("registry").toAbsolutePath();
        Map<String, String> properties = new java.util.LinkedHashMap<>(Map.of(
                "quarkus.http.port", String.valueOf(port),
                "quarkus.http.host", "127.0.0.1",
                // A file instead of the default in-memory database: global ids must outlive a restart, since
                // every Kafka record refers to its schema by id. WRITE_DELAY=0: a hard kill must not lose the last
                // registration, or its global id would be handed out again.
                "quarkus.datasource.jdbc.url", "jdbc:h2:file:" + storage.resolve("registry") + ";WRITE_DELAY=0",
                "quarkus.datasource.jdbc.min-size", "1",
                "quarkus.datasource.jdbc.initial-size", "1",
                "quarkus.log.level", "WARN",
                "quarkus.log.category.\"io.apicurio\".level", "WARN",
                "quarkus.log.category.\"io.sentry\".level", "ERROR",
                "java.io.tmpdir", System.getProperty("java.io.tmpdir")));
        if (!users.isEmpty()) {
            properties.put("quarkus.config.locations", writeAuthConfig(dataDir, users, roles).toString());
            properties.putAll(roleBasedAuthorization());
        }
        ChildJvm jvm = ChildJvm.start("schema registry", jar, List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), properties,
                dataDir.resolve("logs").resolve("registry.log"));
        return new SchemaRegistry(jvm, port, users.isEmpty() ? null : asUser,
                users.isEmpty() ? null : users.get(asUser));
    }

    /**
     * Apicurio's own role-based authorization, on the roles the embedded realm gives each user ({@link RegistryRole}):
     * without it every user may register schemas and change the global rules. It runs only with Apicurio's
     * authentication switched on; its OIDC tenant stays off, since deploy/schema-registry's basic auth authenticates.
     * System properties (no secret in them): they outrank the registry's own application.properties, where
     * {@code quarkus.oidc.tenant-enabled} follows {@code registry.auth.enabled}.
     */
    private static Map<String, String> roleBasedAuthorization() {
        return Map.of("registry.auth.enabled", "true",
                "quarkus.oidc.tenant-enabled", "false",
                "registry.auth.role-based-authorization", "true",
                "registry.auth.role-source", "token", // the identity's roles, which the embedded realm sets
                "registry.auth.anonymous-read-access.enabled", "false");
    }

    /**
     * The registry's users (Quarkus's embedded realm, basic auth), each with its {@link RegistryRole}, and the rule
     * that every path but health needs one.
     */
    private static Path writeAuthConfig(Path dataDir, Map<String, String> users, Map<String, RegistryRole> roles)
            throws IOException {
        java.util.Properties config = new java.util.Properties();
        users.forEach((name, secret) -> {
            config.setProperty("quarkus.security.users.embedded.users." + name, secret);
            // no role, no right: Apicurio refuses a user without one
            RegistryRole role = roles.get(name);
            if (role != null) {
                config.setProperty("quarkus.security.users.embedded.roles." + name, role.roleName());
            }
        });
        config.setProperty("ironflow.registry.users-only", "true"); // deploy/schema-registry's UsersOnlyPolicy
        Path file = dataDir.resolve("secrets").resolve("registry.properties");
        Files.createDirectories(file.getParent());
        KafkaSecurity.writePrivately(file, config, "the schema registry's users (ironflow up --secure)");
        return file.toAbsolutePath();
    }

    /** The Apicurio serde settings of this launcher's user (none on an open registry). */
    Map<String, Object> clientAuth() {
        return user == null ? Map.of()
                : Map.of("apicurio.registry.auth.username", user, "apicurio.registry.auth.password", password);
    }

    public SchemaRegistry awaitReady() throws IOException {
        jvm.awaitReady(URI.create(baseUrl() + "/health/ready"), Duration.ofSeconds(120));
        setGlobalRule("COMPATIBILITY", "BACKWARD");
        return this;
    }

    /**
     * Registers every topic's value schema, one after another, by serializing a sample record with the same
     * Apicurio serializer the services use, so artifact ids, nested-type references and content are exactly
     * theirs. Apicurio's H2 storage fails concurrent first registrations (a content-id race), which several
     * services publishing their first records at once would otherwise trigger. A schema that breaks the
     * BACKWARD rule against the stored one fails here, at start-up.
     */
    public void registerValueSchemas(List<Topic> topics) {
        try (AvroKafkaSerializer<GenericRecord> serializer = new AvroKafkaSerializer<>()) {
            Map<String, Object> config = new java.util.HashMap<>(clientAuth());
            config.put("apicurio.registry.url", apiUrl());
            config.put("apicurio.registry.auto-register", "true");
            serializer.configure(config, false);
            for (Topic topic : topics) {
                topic.valueSchema().ifPresent(schema -> serializer.serialize(topic.topicName(), SampleRecords.of(schema)));
            }
        }
    }

    private void setGlobalRule(String type, String config) throws IOException {
        String body = "{\"type\":\"" + type + "\",\"config\":\"" + config + "\"}";
        HttpResponse<String> created = send(authorized(HttpRequest.newBuilder(URI.create(apiUrl() + "/admin/rules")))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build());
        if (created.statusCode() == 409) { // kept from an earlier run: make sure it says what we want
            created = send(authorized(HttpRequest.newBuilder(URI.create(apiUrl() + "/admin/rules/" + type)))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build());
        }
        if (created.statusCode() / 100 != 2) {
            throw new IOException("cannot set the registry's global " + type + " rule: " + created.statusCode() + " "
                    + created.body());
        }
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder request) {
        if (user != null) {
            request.header("Authorization", "Basic " + java.util.Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        return request;
    }

    private static HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The v2 REST API; the Quarkus Apicurio serde picks its 2.x client from this path. */
    public String apiUrl() {
        return baseUrl() + "/apis/registry/v2";
    }

    /** The Confluent-compatible API, for kcat and other Confluent clients. */
    public String ccompatUrl() {
        return baseUrl() + "/apis/ccompat/v6";
    }

    public ChildJvm jvm() {
        return jvm;
    }

    @Override
    public void close() {
        jvm.close();
    }
}
