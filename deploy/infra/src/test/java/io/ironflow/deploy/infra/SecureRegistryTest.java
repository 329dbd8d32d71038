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
 * registers and resolves schemas.
 */
class SecureRegistryTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Path dataDir;
    private static KafkaSecurity security;
    private static SchemaRegistry registry;

    @BeforeAll
    static void start() throws Exception {
        dataDir = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath()
                .resolve(UUID.randomUUID().toString());
        security = KafkaSecurity.prepare(dataDir, KafkaSecurity.Options.servicesOnly());
        registry = SchemaRegistry.launch(Path.of(System.getProperty("ironflow.registry.jar")), dataDir, Ports.free(1)[0],
                security.users(), KafkaSecurity.ADMIN).awaitReady(); // sets the global rule: with the admin's password
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
        String rules = registry.apiUrl() + "/admin/rules";
        assertEquals(401, get(rules, null));
        assertEquals(401, get(rules, KafkaAccess.API + ":not-the-password"));
        assertEquals(401, get(rules, "nobody:" + security.password(KafkaAccess.API)));
        assertEquals(200, get(rules, KafkaAccess.API + ":" + security.password(KafkaAccess.API)));
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

    private static int get(String url, String credentials) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (credentials != null) {
            request.header("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
