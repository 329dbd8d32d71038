package io.ironflow.teardown.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An etcd error answer is an error, never an empty cluster or a done removal. etcd's JSON gateway answers a
 * failed call with an HTTP error status and a JSON document ({@code code} and {@code message}, plus {@code error}
 * before 3.5); read as a member list it has no members, which would say that the leaving node runs none and let
 * it be destroyed with its member still voting. The endpoints here answer as etcd does when it cannot serve.
 */
class EtcdGatewayTest {

    /** etcd 3.4 and 3.5 (grpc-gateway v1 and v2) answering a call that failed with Unavailable. */
    private static final String UNAVAILABLE_34 = "{\"error\":\"etcdserver: request timed out\",\"code\":14,\"message\":\"etcdserver: request timed out\"}";
    private static final String UNHEALTHY_35 = "{\"code\":14,\"message\":\"etcdserver: unhealthy cluster\",\"details\":[]}";
    private static final String MEMBERS = "{\"header\":{\"cluster_id\":\"1\",\"member_id\":\"2\",\"raft_term\":\"3\"},\"members\":["
            + "{\"ID\":\"10\",\"name\":\"node-0\",\"peerURLs\":[\"http://10.0.0.1:2380\"],\"clientURLs\":[\"http://10.0.0.1:2379\"]}]}";

    private final List<HttpServer> servers = new java.util.ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    @Test
    void aMemberListAnsweredWithAnErrorIsNoListAndTheNextEndpointIsAsked() throws Exception {
        String failing = endpoint(503, UNAVAILABLE_34);
        EtcdGateway.Unreachable refused = assertThrows(EtcdGateway.Unreachable.class, () -> gateway(failing).members());
        assertTrue(refused.getMessage().contains("etcdserver: request timed out"), refused.getMessage());

        String proxyPage = endpoint(502, "<html><body>Bad Gateway</body></html>");
        assertThrows(EtcdGateway.Unreachable.class, () -> gateway(proxyPage).members());

        List<EtcdMember> members = gateway(failing, endpoint(200, MEMBERS)).members();
        assertEquals(1, members.size());
        assertEquals("node-0", members.get(0).name());
    }

    @Test
    void aRemovalAnsweredWithAnErrorIsNotDone() throws Exception {
        EtcdMember member = gateway(endpoint(200, MEMBERS)).members().get(0);
        assertEquals("etcdserver: unhealthy cluster", gateway(endpoint(503, UNHEALTHY_35)).remove(member));
        assertEquals("etcdserver: request timed out", gateway(endpoint(503, UNAVAILABLE_34)).remove(member));
    }

    private EtcdGateway gateway(String... endpoints) {
        EtcdGateway gateway = new EtcdGateway();
        gateway.json = new ObjectMapper();
        gateway.endpoints = List.of(endpoints);
        return gateway;
    }

    /** An endpoint that answers every POST with {@code status} and {@code body}, as JSON. */
    private String endpoint(int status, String body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }
}
