package io.ironflow.teardown.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The status shape: integer code out, integer or string code in; errorCount counts the errors. */
class AirshipStatusTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void promenadesStringCodeIsRead() throws Exception {
        String promenade = "{\"kind\":\"status\",\"apiVersion\":\"v1.0\",\"status\":\"Failure\",\"message\":\"x\","
                + "\"reason\":\"DrainNodeError\",\"code\":\"500 Internal Server Error\",\"retry\":false,"
                + "\"details\":{\"errorCount\":1,\"messageList\":[{\"message\":\"m\",\"error\":true}]}}";
        AirshipStatus status = JSON.configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .readValue(promenade, AirshipStatus.class);
        assertEquals(500, status.code());
        assertFalse(status.succeeded());
        assertEquals(200, JSON.readValue("{\"status\":\"Success\",\"code\":\"200 OK\"}", AirshipStatus.class).code());
        assertEquals(409, JSON.readValue("{\"code\":409}", AirshipStatus.class).code());
        assertThrows(Exception.class, () -> JSON.readValue("{\"code\":\"Conflict\"}", AirshipStatus.class));
    }

    @Test
    void writtenWithAnIntegerCodeAndCountedErrors() throws Exception {
        AirshipStatus status = AirshipStatus.failure(409, "Conflict", "no", List.of(StatusMessage.error("n", "a"),
                StatusMessage.info("n", "b")));
        String json = JSON.writeValueAsString(status);
        assertEquals(409, JSON.readTree(json).get("code").intValue());
        assertEquals(1, JSON.readTree(json).at("/details/errorCount").intValue());
        assertEquals("Status", JSON.readTree(json).get("kind").asText());
    }
}
