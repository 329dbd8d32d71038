package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.schemas.Topic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The schema registry started with users, as the secure stack starts it: every API path needs HTTP basic auth of a
 * known user and password (401 otherwise), health stays open, and the registry's own serializer, given the user,
 * registers and resolves schemas. Each user has only its role's rights (issue 58): readers (the dashboard, external
 * readers) read, principals that write records register schemas, only the launcher's admin changes rules.
 */
class SecureRegistryTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SITE_PRODUCER = "site-automation";
    private static final String SITE_READER = "site-dashboard";

    private static Path dataDir;
    private static KafkaSecurity security;
    private static SchemaRegistry registry;

    @BeforeAll
    static void start() throws Exception {
        dataDir = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath()
                .resolve(UUID.randomUUID().toString());
        security = KafkaSecurity.prepare(dataDir, new KafkaSecurity.Options(List.of(SITE_PRODUCER), List.of(SITE_READER), null));
        registry = SchemaRegistry.launch(Path.of(System.getProperty("ironflow.registry.jar")), dataDir, Ports.free(1)[0],
                security.users(), security.registryRoles(), KafkaSecurity.ADMIN).awaitReady(); // sets the global rule: with the admin's password
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    void everyApiPathNeedsAKnownUser() throws Exception {
        String search = registry.apiUrl() + "/search/artifacts";
        assertEquals(401, get(search, null));
        assertEquals(401, get(search, KafkaAccess.API + ":not-the-password"));
        assertEquals(401, get(search, "nobody:" + security.password(KafkaAccess.API)));
        assertEquals(200, get(search, KafkaAccess.API + ":" + security.password(KafkaAccess.API)));
        assertEquals(401, get(registry.ccompatUrl() + "/subjects", null));
        assertEquals(200, get(registry.baseUrl() + "/health/ready", null));
    }

    @Test
    void theUsersAreGivenInAnOwnerOnlyFileNotOnTheCommandLine() throws Exception {
        Path file = dataDir.resolve("secrets/registry.properties");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String commandLine = registry.jvm().process().info().commandLine().orElse("");
        for (String user : security.users().keySet()) {
            assertEquals(false, commandLine.contains(security.password(user)), user);
        }
    }

    @Test
    void theSerializerRegistersWithItsUserAndIsRefusedWithout() {
        registry.registerValueSchemas(List.of(Topic.NODE_STATE)); // as the admin
        Topic topic = Topic.INTENT_RESULTS;
        GenericRecord sample = SampleRecords.of(topic.valueSchema().orElseThrow());
        try (AvroKafkaSerializer<GenericRecord> serializer = new AvroKafkaSerializer<>()) {
            serializer.configure(Map.of("apicurio.registry.url", registry.apiUrl(), "apicurio.registry.auto-register", "true",
                    "apicurio.registry.auth.username", KafkaAccess.CONDUCTOR,
                    "apicurio.registry.auth.password", security.password(KafkaAccess.CONDUCTOR)), false);
            assertEquals(0, serializer.serialize(topic.topicName(), sample)[0]); // the magic byte of a framed record
        }
        try (AvroKafkaSerializer<GenericRecord> anonymous = new AvroKafkaSerializer<>()) {
            anonymous.configure(Map.of("apicurio.registry.url", registry.apiUrl(), "apicurio.registry.auto-register", "true"),
                    false);
            RuntimeException refused = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                    () -> anonymous.serialize(Topic.NODE_EVENTS.topicName(), SampleRecords.of(Topic.NODE_EVENTS.valueSchema().orElseThrow())));
            org.junit.jupiter.api.Assertions.assertTrue(String.valueOf(refused).contains("401")
                    || String.valueOf(refused.getCause()).contains("401")
                    || refused.getClass().getSimpleName().contains("Auth"), refused.toString());
        }
    }

    @Test
    void everyUserReads() throws Exception {
        for (String user : List.of(KafkaAccess.DASHBOARD, SITE_READER, SITE_PRODUCER, KafkaAccess.CONDUCTOR, KafkaSecurity.ADMIN)) {
            assertEquals(200, get(registry.apiUrl() + "/search/artifacts", user + ":" + security.password(user)), user);
            assertEquals(200, get(registry.apiUrl() + "/admin/rules", user + ":" + security.password(user)), user);
        }
    }

    /** A principal that writes no topic registers nothing; one that writes registers its records' schemas. */
    @Test
    void readersRegisterNothing() throws Exception {
        for (String user : List.of(KafkaAccess.DASHBOARD, SITE_READER)) {
            assertEquals(403, createArtifact(user), user);
        }
        for (String user : List.of(KafkaAccess.API, KafkaAccess.CONDUCTOR, SITE_PRODUCER)) {
            assertEquals(200, createArtifact(user), user);
        }
    }

    @Test
    void onlyTheAdminChangesRules() throws Exception {
        String rule = "{\"type\":\"COMPATIBILITY\",\"config\":\"BACKWARD\"}";
        for (String user : List.of(KafkaAccess.CONDUCTOR, KafkaAccess.API, KafkaAccess.DASHBOARD, SITE_PRODUCER)) {
            assertEquals(403, send("PUT", registry.apiUrl() + "/admin/rules/COMPATIBILITY", user, rule), user);
            assertEquals(403, send("DELETE", registry.apiUrl() + "/admin/rules", user, null), user);
        }
        assertEquals(200, send("PUT", registry.apiUrl() + "/admin/rules/COMPATIBILITY", KafkaSecurity.ADMIN, rule));
    }

    /** Registers a new Avro artifact of its own as {@code user}: the answer's status. */
    private static int createArtifact(String user) throws Exception {
        String id = "probe-" + UUID.randomUUID();
        String schema = "{\"type\":\"record\",\"name\":\"Probe\",\"fields\":[]}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(registry.apiUrl() + "/groups/default/artifacts"))
                .header("Authorization", credentials(user)).header("Content-Type", "application/json")
                .header("X-Registry-ArtifactId", id).header("X-Registry-ArtifactType", "AVRO")
                .POST(HttpRequest.BodyPublishers.ofString(schema)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int send(String method, String url, String user, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", credentials(user))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String credentials(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + security.password(user)).getBytes(StandardCharsets.UTF_8));
    }

    private static int get(String url, String credentials) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (credentials != null) {
            request.header("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
