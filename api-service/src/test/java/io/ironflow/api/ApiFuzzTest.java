package io.ironflow.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ironflow.events.CreateNode;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.ValidateNode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzzer over every path and verb of docs/openapi.yaml, against the real API on real Kafka, registry
 * and PostgreSQL, with {@link FakeConductor} accepting every intent in the conductor's place. Each request is a
 * plausible one (the paths, parameters and bodies the API takes) with mutations: types swapped, sizes from
 * empty to megabytes, JSON nested hundreds deep, NUL and lone surrogates, invalid UTF-8 and broken
 * percent-encoding, unknown fields and parameters, bad UUIDs and names, garbage microversions and media types.
 *
 * <p>What must hold for every request: no 5xx; every 4xx in Ironic's error shape; a refused request sends no
 * intent (the fake conductor accepts everything, so a 4xx is the API's own refusal, and each 2xx write is exactly
 * one intent); and at the end the node table is as it was (the API only ever reads it) and health is UP.
 *
 * <p>Not in the default build: {@code ./mvnw -B -Pfuzz -pl api-service verify}, with {@code -Dfuzz.seed=N}
 * (default 1), {@code -Dfuzz.requests=N} (default 10000) and {@code -Dfuzz.max-seconds=N} (default 900).
 */
@QuarkusTest
@Tag("fuzz")
class ApiFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Path OPENAPI = Path.of("..", "docs", "openapi.yaml");
    private static final Set<String> VERBS = Set.of("get", "put", "post", "patch", "delete");
    /** GET /v1/nodes takes its query through UriInfo, so the OpenAPI document does not list it: Ironic's list parameters. */
    private static final List<String> NODE_LIST_PARAMETERS = List.of("limit", "marker", "sort_key", "sort_dir", "fields",
            "detail", "provision_state", "driver", "resource_class", "owner", "lessee", "conductor_group", "conductor",
            "fault", "maintenance", "retired", "associated", "instance_uuid", "project", "description_contains",
            "chassis_uuid", "shard", "sharded", "parent_node", "include_children");
    private static final String SURROGATE = "@@lone-surrogate@@";

    private static FakeConductor conductor;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;
    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;
    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;
    @TestHTTPResource("/")
    URL root;

    /** One path and verb of the OpenAPI document, with the parameters it names. */
    record Operation(String method, String template, List<String> query, boolean body) {

        String key() {
            return method + " " + template;
        }
    }

    /** One generated request; {@code protocol} marks bytes an HTTP codec may refuse before the application sees them. */
    record Request(Operation operation, String method, String target, Map<String, String> headers, byte[] body,
            boolean chunked, boolean protocol, String note) {
    }

    @AfterAll
    static void stopConductor() throws InterruptedException {
        if (conductor != null) {
            conductor.close();
            conductor = null;
        }
    }

    @Test
    void everyPathAndVerbSurvivesSeededGarbage() throws Exception {
        long seed = Long.getLong("fuzz.seed", 1L);
        int count = Integer.getInteger("fuzz.requests", 10_000);
        Duration budget = Duration.ofSeconds(Long.getLong("fuzz.max-seconds", 900L));

        NodeTable.migrate(jdbcUrl);
        conductor = new FakeConductor(bootstrapServers, registryUrl);
        conductor.answerEveryOtherNode(ApiFuzzTest::accept);
        RawHttp http = new RawHttp(root);
        await().atMost(Duration.ofSeconds(60)).until(() -> health(http) == 200);

        List<String> uuids = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String name = "fuzz-" + seed + "-" + i;
            uuids.add(NodeTable.insert(jdbcUrl, NodeTable.Row.named(i % 4 == 3 ? null : name)));
            names.add(name);
        }
        String tableBefore = NodeTable.digest(jdbcUrl);
        List<Operation> operations = operations();
        Generator generator = new Generator(new Random(seed), uuids, names);

        Map<String, Integer> byStatus = new TreeMap<>();
        Map<String, Integer> byOperation = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        int[] classes = new int[6];
        int fiveHundreds = 0;
        int protocolRefusals = 0;
        int intentsExpected = 0;
        int intentsAtStart = conductor.intentsRead();
        Instant start = Instant.now();
        int sent = 0;
        for (; sent < count && Duration.between(start, Instant.now()).compareTo(budget) < 0; sent++) {
            Request request = generator.next(operations.get(generator.random.nextInt(operations.size())));
            int intentsBefore = conductor.intentsRead();
            RawHttp.Reply reply;
            try {
                reply = http.send(request.method(), request.target(), request.headers(), request.body(), request.chunked());
            } catch (IOException e) {
                failures.add(describe(sent, request) + " -> no response: " + e);
                continue;
            }
            int status = reply.status();
            classes[Math.min(status / 100, 5)]++;
            byStatus.merge(String.valueOf(status), 1, Integer::sum);
            byOperation.merge(request.operation().key(), 1, Integer::sum);
            int intentsAfter = conductor.intentsRead();
            if (status >= 500) {
                fiveHundreds++;
                failures.add(describe(sent, request) + " -> " + status + " " + shorten(reply.body()));
                continue;
            }
            if (status >= 400) {
                String problem = ironicErrorProblem(reply);
                if (problem != null && request.protocol() && reply.body().isEmpty()) {
                    protocolRefusals++; // the HTTP codec refused the bytes before the application saw them
                } else if (problem != null) {
                    failures.add(describe(sent, request) + " -> " + status + " not in Ironic's error shape (" + problem
                            + "): " + shorten(reply.body()));
                }
                if (intentsAfter != intentsBefore) {
                    failures.add(describe(sent, request) + " -> " + status + " but " + (intentsAfter - intentsBefore)
                            + " intent(s) were sent");
                }
            } else if (request.note().contains("path-tail") && intentsAfter - intentsBefore <= 1) {
                // "/..", "//x" and the like: which resource answered is the router's normalization to decide.
                intentsExpected += intentsAfter - intentsBefore;
            } else if (sends(request, status)) {
                intentsExpected++;
                if (intentsAfter != intentsBefore + 1) {
                    failures.add(describe(sent, request) + " -> " + status + " with " + (intentsAfter - intentsBefore)
                            + " intents read, expected 1");
                }
            } else if (intentsAfter != intentsBefore) {
                failures.add(describe(sent, request) + " -> " + status + " (a read) sent " + (intentsAfter - intentsBefore)
                        + " intent(s)");
            }
        }
        Duration took = Duration.between(start, Instant.now());

        // Nothing arrives late: every intent read belongs to a 2xx write.
        Thread.sleep(1000);
        int intentsSent = conductor.intentsRead() - intentsAtStart;
        String tableAfter = NodeTable.digest(jdbcUrl);
        int healthStatus = health(http);
        String healthBody = http.send("GET", "/q/health", Map.of(), null, false).body();

        System.out.printf(Locale.ROOT, "FUZZ seed=%d requests=%d time=%.1fs 1xx=%d 2xx=%d 3xx=%d 4xx=%d 5xx=%d"
                        + " 5xx-seen=%d http-codec-refusals=%d intents=%d/%d failures=%d statuses=%s%n",
                seed, sent, took.toMillis() / 1000.0, classes[1], classes[2], classes[3], classes[4], classes[5],
                fiveHundreds, protocolRefusals, intentsSent, intentsExpected, failures.size(), byStatus);
        System.out.println("FUZZ operations " + byOperation);
        failures.stream().limit(40).forEach(f -> System.out.println("FUZZ FAILURE " + f));

        for (Operation operation : operations) {
            assertTrue(byOperation.containsKey(operation.key()), operation.key() + " was never exercised");
        }
        assertEquals(List.of(), failures.stream().limit(20).toList(), failures.size() + " failures (seed " + seed + ")");
        assertEquals(intentsExpected, intentsSent, "every intent sent belongs to a 2xx write");
        assertEquals(tableBefore, tableAfter, "the node table is as it was");
        assertEquals(200, healthStatus, healthBody);
        assertTrue(JSON.readTree(healthBody).get("status").asText().equals("UP"), healthBody);
    }

    // ---- what the answers must be

    /** Whether a 2xx answer to this request means one intent went to the conductor. */
    private static boolean sends(Request request, int status) {
        String template = request.operation().template();
        return switch (request.method()) {
            case "POST", "PATCH", "PUT", "DELETE" -> template.startsWith("/v1/nodes");
            case "GET" -> template.equals("/v1/nodes/{ident}/validate");
            default -> false;
        };
    }

    /** Null when the reply is Ironic's error document, else what is wrong with it. */
    private static String ironicErrorProblem(RawHttp.Reply reply) {
        if (reply.header("X-OpenStack-Ironic-API-Maximum-Version") == null) {
            return "no X-OpenStack-Ironic-API-Maximum-Version";
        }
        try {
            JsonNode outer = JSON.readTree(reply.body());
            if (outer == null || !outer.isObject() || outer.size() != 1 || !outer.path("error_message").isTextual()) {
                return "not {\"error_message\": \"...\"}";
            }
            JsonNode fault = JSON.readTree(outer.get("error_message").asText());
            if (!fault.path("faultcode").asText().equals(reply.status() < 500 ? "Client" : "Server")) {
                return "faultcode " + fault.path("faultcode");
            }
            if (!fault.path("faultstring").isTextual() || fault.get("faultstring").asText().isBlank()) {
                return "no faultstring";
            }
            if (!fault.has("debuginfo") || !fault.get("debuginfo").isNull()) {
                return "debuginfo is not null";
            }
            if (fault.get("faultstring").asText().matches("(?s).*\\b(java|io\\.ironflow|jakarta|com\\.fasterxml)\\.[a-z].*")) {
                return "faultstring names internals";
            }
            return null;
        } catch (IOException e) {
            return "not JSON";
        }
    }

    // ---- the conductor's stand-in: accepts everything

    private static IntentResult accept(NodeIntent intent) {
        Object command = intent.getCommand();
        if (command instanceof DeleteNode) {
            return FakeConductor.accepted(intent, 200, null);
        }
        NodeSnapshot.Builder node = NodeSnapshot.newBuilder()
                .setUuid(intent.getNodeUuid())
                .setRevision(2)
                .setDriver("fake-hardware")
                .setProvisionState("enroll")
                .setCreatedAt(Instant.now());
        if (command instanceof CreateNode create) {
            node.setName(create.getName()).setDriver(create.getDriver());
        }
        IntentResult result = FakeConductor.accepted(intent, command instanceof CreateNode ? 201 : 200, node.build());
        if (command instanceof ValidateNode) {
            result = IntentResult.newBuilder(result).setValidation("{\"power\": {\"result\": true}}").build();
        }
        return result;
    }

    // ---- the document

    private static List<Operation> operations() throws IOException {
        JsonNode paths = new ObjectMapper(new YAMLFactory()).readTree(OPENAPI.toFile()).get("paths");
        List<Operation> operations = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> path = it.next();
            for (Iterator<Map.Entry<String, JsonNode>> verbs = path.getValue().fields(); verbs.hasNext(); ) {
                Map.Entry<String, JsonNode> verb = verbs.next();
                if (!VERBS.contains(verb.getKey())) {
                    continue;
                }
                List<String> query = new ArrayList<>();
                for (JsonNode parameter : verb.getValue().path("parameters")) {
                    if (parameter.path("in").asText().equals("query")) {
                        query.add(parameter.path("name").asText());
                    }
                }
                if (path.getKey().equals("/v1/nodes") || path.getKey().equals("/v1/nodes/detail")) {
                    if (verb.getKey().equals("get")) {
                        query.addAll(NODE_LIST_PARAMETERS);
                    }
                }
                operations.add(new Operation(verb.getKey().toUpperCase(Locale.ROOT), path.getKey(), query,
                        verb.getValue().has("requestBody")));
            }
        }
        assertTrue(operations.size() >= 17, "docs/openapi.yaml lists " + operations.size() + " operations");
        return operations;
    }

    // ---- the generator

    static final class Generator {

        final Random random;
        private final List<String> uuids;
        private final List<String> names;

        Generator(Random random, List<String> uuids, List<String> names) {
            this.random = random;
            this.uuids = uuids;
            this.names = names;
        }

        Request next(Operation operation) {
            boolean[] protocol = {false};
            StringBuilder notes = new StringBuilder();
            String method = operation.method();
            if (chance(3)) { // a verb the path does not take: 405
                method = pick("GET", "PUT", "POST", "PATCH", "DELETE");
                notes.append("verb ");
            }
            String target = path(operation.template(), notes) + query(operation, notes);
            Map<String, String> headers = headers(notes, protocol);
            byte[] body = null;
            boolean wantsBody = operation.body() && method.equals(operation.method());
            if (wantsBody ? !chance(4) : chance(5)) {
                body = body(operation, notes);
                headers.putIfAbsent("Content-Type", contentType(notes));
            }
            if (chance(2) && target.length() < 3000) { // raw bytes the request line should not carry
                target = target + (target.contains("?") ? "&" : "?") + "q=" + pick("\u00e9", "\u00ff", "\u0080x", "a b");
                protocol[0] = true;
                notes.append("raw-target ");
            }
            if (method.length() + target.length() + 10 > 4096) { // Vert.x's limit on the request line (bare 414)
                protocol[0] = true;
                notes.append("long-request-line ");
            }
            boolean chunked = body != null && chance(10);
            if (chunked) {
                notes.append("chunked ");
            }
            return new Request(operation, method, target, headers, body, chunked, protocol[0], notes.toString().trim());
        }

        // -- paths

        private String path(String template, StringBuilder notes) {
            StringBuilder out = new StringBuilder();
            int at = 0;
            while (true) {
                int open = template.indexOf('{', at);
                if (open < 0) {
                    out.append(template.substring(at));
                    break;
                }
                int close = template.indexOf('}', open);
                out.append(template, at, open);
                String parameter = template.substring(open + 1, close);
                out.append(parameter.equals("name") ? driverName(notes) : ident(notes));
                at = close + 1;
            }
            if (chance(2)) {
                out.append(pick("/", "/extra", "%2F", "/..", "//x"));
                notes.append("path-tail ");
            }
            return out.toString();
        }

        private String ident(StringBuilder notes) {
            int roll = random.nextInt(100);
            if (roll < 30) {
                return pick(uuids);
            }
            if (roll < 45) {
                return encode(pick(names));
            }
            if (roll < 52) {
                return UUID.randomUUID().toString();
            }
            if (roll < 56) {
                return pick(uuids).toUpperCase(Locale.ROOT);
            }
            notes.append("bad-ident ");
            return pick(() -> pick(uuids).substring(1), () -> pick(uuids) + "0", () -> pick(uuids).replace('-', '_'),
                    () -> encode(garbageText(random.nextInt(40))), () -> percentGarbage(),
                    () -> encode("n".repeat(200 + random.nextInt(600))), () -> "detail", () -> encode(" "),
                    () -> encode(pick(names) + "\u0000"), () -> "%00", () -> "x%00y", () -> encode("\u00e9t\u00e9"),
                    () -> "%ed%a0%80", () -> "%c0%af", () -> "%ff%fe", () -> "%", () -> "%4", () -> "%zz",
                    () -> "0", () -> "-1", () -> "99999999999999999999999");
        }

        private String driverName(StringBuilder notes) {
            if (chance(50)) {
                return pick("fake-hardware", "ipmi", "redfish");
            }
            notes.append("bad-driver ");
            return pick(() -> encode(garbageText(random.nextInt(30))), this::percentGarbage, () -> "fake%00hardware",
                    () -> encode("d".repeat(1000)));
        }

        // -- queries

        private String query(Operation operation, StringBuilder notes) {
            List<String> pairs = new ArrayList<>();
            if (!operation.query().isEmpty()) {
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    String name = pick(operation.query());
                    pairs.add(name + "=" + queryValue(name, notes));
                }
            }
            if (chance(8)) {
                pairs.add(encode(pick("bogus", "limit[]", "\u00e9", "fields")) + "=" + encode(garbageText(8)));
                notes.append("unknown-param ");
            }
            if (chance(4)) {
                pairs.add(pick("a=%00", "a=%zz", "%00=1", "a=%", "a=%ff", "=", "&&", "a", "a==b", "a=%C0%80"));
                notes.append("query-garbage ");
            }
            return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
        }

        private String queryValue(String name, StringBuilder notes) {
            if (chance(25)) {
                notes.append("bad-query ");
                return pick(() -> encode(garbageText(random.nextInt(60))), this::percentGarbage, () -> "%00",
                        () -> encode("v".repeat(2000)), () -> "", () -> encode(pick(uuids) + "\u0000"),
                        () -> "99999999999999999999", () -> "-5", () -> "1e9", () -> "0x10", () -> "true%00");
            }
            return encode(switch (name) {
                case "limit" -> pick("1", "2", "5", "1000", "1001", "0");
                case "marker", "instance_uuid", "chassis_uuid" -> pick(uuids);
                case "sort_key" -> pick("id", "name", "uuid", "created_at", "provision_state", "retired", "bogus");
                case "sort_dir" -> pick("asc", "desc", "DESC", "up");
                case "fields" -> pick("uuid,name", "uuid", "name,retired,lessee", "bogus", " , ", "driver_info,extra");
                case "detail", "maintenance", "retired", "associated", "sharded", "include_children" ->
                        pick("True", "false", "1", "no", "maybe");
                case "provision_state" -> pick("enroll", "available", "manageable", "active");
                case "driver" -> pick("fake-hardware", "ipmi");
                case "type" -> pick("dynamic", "classic", "other");
                case "min_priority" -> pick("0", "10", "-1", "x", "2147483648");
                default -> pick(garbageText(10), pick(names), "owner-1", "");
            });
        }

        // -- headers

        private Map<String, String> headers(StringBuilder notes, boolean[] protocol) {
            Map<String, String> headers = new LinkedHashMap<>();
            int roll = random.nextInt(100);
            String version;
            if (roll < 12) {
                version = null;
            } else if (roll < 45) {
                version = pick("latest", "LATEST", " latest ");
            } else if (roll < 70) {
                version = "1." + (1 + random.nextInt(65));
            } else {
                notes.append("bad-version ");
                version = pick(() -> "99999999999999999999.1", () -> "1.99999999999999999999", () -> "1.83", () -> "1.0",
                        () -> "2.1", () -> "0.1", () -> "1", () -> "1.", () -> ".5", () -> "1.2.3", () -> "-1.5",
                        () -> "1.-1", () -> "one.two", () -> "", () -> "1.65 1.64", () -> "1,5", () -> "latest1",
                        () -> "9".repeat(300) + "." + "9".repeat(300), () -> "1." + random.nextInt(),
                        () -> random.nextInt() + "." + random.nextInt(), () -> garbageHeaderValue(20));
            }
            if (version != null) {
                if (chance(20)) {
                    headers.put("OpenStack-API-Version", pick("baremetal ", "compute 2.1, baremetal ", "BAREMETAL ", "baremetal")
                            + version);
                } else {
                    headers.put("X-OpenStack-Ironic-API-Version", version);
                }
            }
            if (chance(10)) {
                headers.put("Accept", pick("application/json", "*/*", "text/html", "application/xml", "garbage", ""));
                notes.append("accept ");
            }
            if (chance(10)) {
                headers.put("X-Auth-Token", pick("notused", garbageHeaderValue(30)));
            }
            if (chance(2)) { // control bytes in a header value: HTTP/1.1 does not allow them
                headers.put("X-OpenStack-Ironic-API-Version", pick("1.5\u0000", "\u0001", "1.\u00001", "latest\u000b"));
                protocol[0] = true;
                notes.append("ctl-header ");
            }
            return headers;
        }

        private String contentType(StringBuilder notes) {
            if (chance(85)) {
                return "application/json";
            }
            notes.append("content-type ");
            return pick("text/plain", "application/json; charset=latin1", "application/json; charset=bogus-9",
                    "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "garbage", "",
                    "application/json; charset=utf-16");
        }

        // -- bodies

        private byte[] body(Operation operation, StringBuilder notes) {
            JsonNode document = switch (operation.template()) {
                case "/v1/nodes" -> create();
                case "/v1/nodes/{ident}" -> patch();
                case "/v1/nodes/{ident}/states/provision" -> provision();
                case "/v1/nodes/{ident}/states/power" -> power();
                case "/v1/nodes/{ident}/maintenance" -> chance(20) ? null : maintenance();
                default -> chance(50) ? null : create();
            };
            if (document != null && chance(70)) {
                int n = 1 + random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    document = mutate(document, notes);
                }
            }
            String text = document == null ? "" : document.toString();
            if (text.contains(SURROGATE)) {
                text = text.replace(SURROGATE, pick("\\ud800", "\\udfff", "\\ud83d", "a\\udc00b"));
            }
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (chance(20)) {
                bytes = corrupt(bytes, notes);
            }
            return bytes;
        }

        private ObjectNode create() {
            ObjectNode node = NODES.objectNode();
            node.put("driver", "fake-hardware");
            if (chance(60)) {
                node.put("name", "fz-" + Integer.toHexString(random.nextInt()));
            }
            if (chance(30)) {
                node.put("uuid", UUID.randomUUID().toString());
            }
            for (String field : List.of("description", "owner", "lessee", "resource_class", "conductor_group")) {
                if (chance(15)) {
                    node.put(field, garbageText(random.nextInt(20)));
                }
            }
            for (String field : List.of("driver_info", "properties", "extra", "instance_info")) {
                if (chance(15)) {
                    node.set(field, NODES.objectNode().put("k", garbageText(5)));
                }
            }
            if (chance(10)) {
                node.put("automated_clean", random.nextBoolean());
            }
            return node;
        }

        private ArrayNode patch() {
            ArrayNode patch = NODES.arrayNode();
            int n = 1 + random.nextInt(3);
            for (int i = 0; i < n; i++) {
                ObjectNode op = patch.addObject();
                String kind = pick("add", "replace", "remove");
                op.put("op", kind);
                String field = pick("name", "description", "owner", "lessee", "resource_class", "conductor_group",
                        "instance_uuid", "retired", "retired_reason", "automated_clean", "extra", "driver_info",
                        "properties", "instance_info", "uuid", "provision_state", "maintenance");
                boolean member = Set.of("extra", "driver_info", "properties", "instance_info").contains(field) && chance(60);
                op.put("path", "/" + field + (member ? "/" + pick("a", "b/c", "x~1y", "") : ""));
                if (!kind.equals("remove")) {
                    op.set("value", member ? anyValue(2) : valueFor(field));
                }
            }
            return patch;
        }

        private JsonNode valueFor(String field) {
            return switch (field) {
                case "name" -> NODES.textNode(pick("ok-" + random.nextInt(1000), "bad name", "x".repeat(256), "\u00e9"));
                case "instance_uuid", "uuid" -> NODES.textNode(pick(UUID.randomUUID().toString(), "nope"));
                case "retired", "automated_clean" -> pick(() -> NODES.booleanNode(random.nextBoolean()),
                        () -> NODES.textNode(pick("True", "no", "maybe")), () -> NODES.nullNode());
                case "extra", "driver_info", "properties", "instance_info" -> NODES.objectNode().put("k", garbageText(4));
                default -> NODES.textNode(garbageText(random.nextInt(30)));
            };
        }

        private ObjectNode provision() {
            ObjectNode node = NODES.objectNode();
            node.put("target", pick("manage", "provide", "inspect", "clean", "abort", "adopt", "rescue", "unrescue",
                    "active", "deleted", "rebuild", "deploy", "frobnicate"));
            if (chance(20)) {
                node.set("clean_steps", NODES.arrayNode().add(NODES.objectNode().put("interface", "deploy").put("step", "erase")));
            }
            if (chance(10)) {
                node.put("rescue_password", garbageText(8));
            }
            if (chance(10)) {
                node.put("configdrive", "H4sI");
            }
            return node;
        }

        private ObjectNode power() {
            ObjectNode node = NODES.objectNode();
            node.put("target", pick("power on", "power off", "rebooting", "soft power off", "soft rebooting", "sideways"));
            if (chance(30)) {
                node.put("timeout", pick(30, 0, -1, Integer.MAX_VALUE));
            }
            return node;
        }

        private ObjectNode maintenance() {
            return NODES.objectNode().put("reason", garbageText(random.nextInt(40)));
        }

        /** One structural mutation somewhere in the document. */
        private JsonNode mutate(JsonNode document, StringBuilder notes) {
            int roll = random.nextInt(12);
            switch (roll) {
                case 0 -> {
                    notes.append("top-level ");
                    return pick(() -> NODES.arrayNode().add(document), () -> NODES.textNode(document.toString()),
                            () -> NODES.numberNode(7), () -> NODES.nullNode(), () -> NODES.objectNode(), () -> NODES.arrayNode());
                }
                case 1 -> {
                    notes.append("megabyte-string ");
                    setSomewhere(document, NODES.textNode("m".repeat(1 << 20)));
                }
                case 2 -> {
                    notes.append("near-limit-string ");
                    setSomewhere(document, NODES.textNode("s".repeat(pick(80, 81, 255, 256, 4096, 4097, 20_000))));
                }
                case 3 -> {
                    int depth = pick(16, 30, 31, 33, 64, 500);
                    notes.append("deep-").append(depth).append(' ');
                    JsonNode deep = NODES.textNode("bottom");
                    for (int i = 0; i < depth; i++) {
                        if (chance(50)) {
                            deep = NODES.arrayNode().add(deep);
                        } else {
                            ObjectNode level = NODES.objectNode();
                            level.set("d", deep);
                            deep = level;
                        }
                    }
                    setSomewhere(document, deep);
                }
                case 4 -> {
                    notes.append("nul ");
                    setSomewhere(document, NODES.textNode(pick("\u0000", "a\u0000", "\u0000\u0000b")));
                }
                case 5 -> {
                    notes.append("surrogate ");
                    setSomewhere(document, NODES.textNode(SURROGATE));
                }
                case 6 -> {
                    notes.append("number ");
                    setSomewhere(document, pick(() -> NODES.numberNode(Double.MAX_VALUE), () -> NODES.numberNode(-0.0),
                            () -> NODES.numberNode(new java.math.BigInteger("9".repeat(pick(19, 40, 900)))),
                            () -> NODES.numberNode(Long.MIN_VALUE), () -> NODES.rawValueNode(
                                    new com.fasterxml.jackson.databind.util.RawValue(pick("1e400", "-1e999", "1" + "0".repeat(1500))))));
                }
                case 7 -> {
                    notes.append("unknown-field ");
                    if (document instanceof ObjectNode object) {
                        object.set(pick("bogus", "", "\u00e9", "driver_internal_info", "provision_state", "name "), anyValue(2));
                    } else if (document instanceof ArrayNode array && !array.isEmpty() && array.get(0) instanceof ObjectNode op) {
                        op.set(pick("from", "bogus", "value2"), anyValue(1));
                    }
                }
                case 8 -> {
                    notes.append("type-swap ");
                    setSomewhere(document, anyValue(2));
                }
                case 9 -> {
                    notes.append("drop-field ");
                    dropSomewhere(document);
                }
                case 10 -> {
                    notes.append("bad-uuid ");
                    setSomewhere(document, NODES.textNode(pick("not-a-uuid", UUID.randomUUID().toString().toUpperCase(Locale.ROOT),
                            UUID.randomUUID().toString().substring(1), "{" + UUID.randomUUID() + "}", "00000000000000000000000000000000")));
                }
                default -> {
                    notes.append("bad-name ");
                    setSomewhere(document, NODES.textNode(pick("bad name", "", " ", "\u00e9t\u00e9", UUID.randomUUID().toString(),
                            "n".repeat(300), "a/b", "..")));
                }
            }
            return document;
        }

        /** Replaces a random value of the document (an object member or array element, at any depth) by {@code value}. */
        private void setSomewhere(JsonNode document, JsonNode value) {
            List<JsonNode> containers = new ArrayList<>();
            collect(document, containers);
            if (containers.isEmpty()) {
                return;
            }
            JsonNode container = pick(containers);
            if (container instanceof ObjectNode object) {
                List<String> keys = new ArrayList<>();
                object.fieldNames().forEachRemaining(keys::add);
                object.set(keys.isEmpty() || chance(15) ? "f" + random.nextInt(3) : pick(keys), value);
            } else if (container instanceof ArrayNode array) {
                if (array.isEmpty() || chance(15)) {
                    array.add(value);
                } else {
                    array.set(random.nextInt(array.size()), value);
                }
            }
        }

        private void dropSomewhere(JsonNode document) {
            List<JsonNode> containers = new ArrayList<>();
            collect(document, containers);
            for (JsonNode container : containers) {
                if (container instanceof ObjectNode object && object.size() > 0) {
                    List<String> keys = new ArrayList<>();
                    object.fieldNames().forEachRemaining(keys::add);
                    object.remove(pick(keys));
                    return;
                }
            }
        }

        private static void collect(JsonNode node, List<JsonNode> containers) {
            if (node.isContainerNode() && containers.size() < 64) {
                containers.add(node);
                node.forEach(child -> collect(child, containers));
            }
        }

        private JsonNode anyValue(int depth) {
            int roll = random.nextInt(depth > 0 ? 9 : 7);
            return switch (roll) {
                case 0 -> NODES.nullNode();
                case 1 -> NODES.booleanNode(random.nextBoolean());
                case 2 -> NODES.numberNode(random.nextInt());
                case 3 -> NODES.numberNode(random.nextDouble() * 1e6);
                case 4, 5 -> NODES.textNode(garbageText(random.nextInt(20)));
                case 6 -> NODES.textNode(pick(uuids));
                case 7 -> {
                    ArrayNode array = NODES.arrayNode();
                    for (int i = random.nextInt(3); i > 0; i--) {
                        array.add(anyValue(depth - 1));
                    }
                    yield array;
                }
                default -> {
                    ObjectNode object = NODES.objectNode();
                    for (int i = random.nextInt(3); i > 0; i--) {
                        object.set(garbageText(4), anyValue(depth - 1));
                    }
                    yield object;
                }
            };
        }

        /** Byte-level damage to an encoded body. */
        private byte[] corrupt(byte[] bytes, StringBuilder notes) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int roll = random.nextInt(8);
            int at = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
            switch (roll) {
                case 0 -> { // truncated
                    notes.append("truncated ");
                    out.write(bytes, 0, at);
                }
                case 1, 2 -> { // invalid UTF-8 inside the text
                    notes.append("invalid-utf8 ");
                    byte[] bad = pick(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0xaf},
                            new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, new byte[] {(byte) 0x80},
                            new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80});
                    int quote = indexOf(bytes, (byte) '"', at);
                    int where = quote < 0 ? at : quote + 1;
                    out.write(bytes, 0, where);
                    out.writeBytes(bad);
                    out.write(bytes, where, bytes.length - where);
                }
                case 3 -> { // a raw NUL byte
                    notes.append("raw-nul ");
                    out.write(bytes, 0, at);
                    out.write(0);
                    out.write(bytes, at, bytes.length - at);
                }
                case 4 -> { // a BOM
                    notes.append("bom ");
                    out.writeBytes(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});
                    out.writeBytes(bytes);
                }
                case 5 -> { // trailing garbage
                    notes.append("trailing ");
                    out.writeBytes(bytes);
                    out.writeBytes(pick("}", "]", " x", ",", "{}", "\u0000").getBytes(StandardCharsets.UTF_8));
                }
                case 6 -> { // duplicate document
                    notes.append("twice ");
                    out.writeBytes(bytes);
                    out.writeBytes(bytes);
                }
                default -> { // whitespace, null, or nothing
                    notes.append("blank ");
                    out.writeBytes(pick("", " ", "null", "\n\t", "0", "\"\"").getBytes(StandardCharsets.UTF_8));
                }
            }
            return out.toByteArray();
        }

        private static int indexOf(byte[] bytes, byte b, int from) {
            for (int i = from; i < bytes.length; i++) {
                if (bytes[i] == b) {
                    return i;
                }
            }
            return -1;
        }

        // -- text

        /** Text of every kind: ASCII, accents, emoji, controls, RTL, quotes, and sometimes a NUL. */
        private String garbageText(int length) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < length; i++) {
                int roll = random.nextInt(20);
                if (roll < 10) {
                    out.append((char) ('a' + random.nextInt(26)));
                } else if (roll < 12) {
                    out.append(pick("-", "_", ".", "~", " ", "/", "?", "#", "&", "=", "%", "+", "\"", "'", "\\", "{", "}"));
                } else if (roll < 14) {
                    out.append(pick("\u00e9", "\u00df", "\u4e2d", "\u202e", "\ufeff", "\uffff", "\ud83d\ude00"));
                } else if (roll < 15) {
                    out.append((char) random.nextInt(0x20));
                } else {
                    out.append((char) ('0' + random.nextInt(10)));
                }
            }
            return out.toString();
        }

        private String garbageHeaderValue(int length) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < length; i++) {
                out.append(random.nextInt(10) == 0 ? (char) (0x80 + random.nextInt(0x80)) : (char) (0x21 + random.nextInt(0x5e)));
            }
            return out.toString();
        }

        private String percentGarbage() {
            return pick("%", "%z", "%zz", "%0", "%00", "%ff", "%c0%af", "%ed%a0%80", "%e2%28%a1", "%%", "%2", "%2g",
                    "a%00b", "%u0041");
        }

        /** Percent-encodes every byte outside RFC 3986's unreserved characters, as a client does. */
        static String encode(String text) {
            StringBuilder out = new StringBuilder();
            for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
                int c = b & 0xff;
                if (Character.isLetterOrDigit(c) && c < 0x80 || c == '-' || c == '.' || c == '_' || c == '~') {
                    out.append((char) c);
                } else {
                    out.append('%').append(String.format(Locale.ROOT, "%02X", c));
                }
            }
            return out.toString();
        }

        // -- choices

        boolean chance(int percent) {
            return random.nextInt(100) < percent;
        }

        @SafeVarargs
        final <T> T pick(T... values) {
            return values[random.nextInt(values.length)];
        }

        <T> T pick(List<T> values) {
            return values.get(random.nextInt(values.size()));
        }

        @SafeVarargs
        final <T> T pick(Supplier<T>... suppliers) {
            return suppliers[random.nextInt(suppliers.length)].get();
        }
    }

    // ---- helpers

    private static int health(RawHttp http) {
        try {
            return http.send("GET", "/q/health/ready", Map.of(), null, false).status();
        } catch (IOException e) {
            return -1;
        }
    }


    private static String describe(int index, Request request) {
        int size = request.body() == null ? -1 : request.body().length;
        String body = request.body() == null ? "" : " body(" + size + ")=" + shorten(new String(request.body(), StandardCharsets.UTF_8));
        return "#" + index + " [" + request.note() + "] " + request.method() + " " + shorten(request.target()) + " "
                + request.headers() + body;
    }

    private static String shorten(String text) {
        String flat = text.replaceAll("[\\p{Cntrl}]", "?");
        return flat.length() > 300 ? flat.substring(0, 300) + "...(" + flat.length() + ")" : flat;
    }
}
