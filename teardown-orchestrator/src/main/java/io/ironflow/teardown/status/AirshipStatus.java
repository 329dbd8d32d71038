package io.ironflow.teardown.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The Airship (UCP) status response every teardown endpoint answers with: {@code kind: Status},
 * {@code apiVersion: v1.0}, {@code status} Success or Failure, a terse {@code message}, a CamelCase
 * {@code reason}, {@code details} with {@code errorCount} (the entries with {@code error: true}) and
 * {@code messageList}, and {@code code}, the HTTP status. It is emitted with an integer code; read back, a
 * string code as Promenade and Shipyard send it ({@code "500 Internal Server Error"}) is accepted too.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AirshipStatus(String kind, String apiVersion, Map<String, Object> metadata, String status, String message,
        String reason, Details details, @JsonDeserialize(using = AirshipStatus.CodeReader.class) int code) {

    /** {@code errorCount} and {@code messageList}. */
    public record Details(int errorCount, List<StatusMessage> messageList) {
        public static Details of(List<StatusMessage> messages) {
            List<StatusMessage> list = messages == null ? List.of() : List.copyOf(messages);
            return new Details((int) list.stream().filter(StatusMessage::error).count(), list);
        }
    }

    public static AirshipStatus success(String message, List<StatusMessage> messages) {
        return new AirshipStatus("Status", "v1.0", Map.of(), "Success", message, "Success", Details.of(messages), 200);
    }

    public static AirshipStatus failure(int code, String reason, String message, List<StatusMessage> messages) {
        return new AirshipStatus("Status", "v1.0", Map.of(), "Failure", message, reason, Details.of(messages), code);
    }

    public boolean succeeded() {
        return "Success".equalsIgnoreCase(status);
    }

    /** Reads {@code code} as an integer or as a string that starts with one ("409 Conflict"). */
    public static final class CodeReader extends JsonDeserializer<Integer> {
        @Override
        public Integer deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonNode node = parser.readValueAsTree();
            if (node.isNumber()) {
                return node.intValue();
            }
            String text = node.asText().trim();
            int end = 0;
            while (end < text.length() && Character.isDigit(text.charAt(end))) {
                end++;
            }
            if (end == 0) {
                throw context.weirdStringException(text, Integer.class, "a status code must start with digits");
            }
            return Integer.parseInt(text.substring(0, end));
        }
    }
}
