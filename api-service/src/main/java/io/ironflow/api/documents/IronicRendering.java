package io.ironflow.api.documents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How Ironic's API renders a resource document, for every resource that shows one: the fields in the resource's
 * own order, only those shown (asked for and known at the request's version); links as Ironic's self/bookmark pair;
 * a dictionary stored as JSON text as the object; a time as ISO 8601 with microseconds and an explicit offset.
 */
public final class IronicRendering {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> DICT = new TypeReference<>() {
    };
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    private IronicRendering() {
    }

    /** The document of the fields of {@code order} that are {@code shown}, each with its {@code value}, in that order. */
    public static Map<String, Object> document(List<String> order, Predicate<String> shown, Function<String, Object> value) {
        Map<String, Object> doc = new LinkedHashMap<>();
        for (String field : order) {
            if (shown.test(field)) {
                doc.put(field, value.apply(field));
            }
        }
        return doc;
    }

    /** Ironic's link pair: {@code self} under /v1 and {@code bookmark} without the version. */
    public static List<Map<String, String>> links(URI base, String path) {
        String root = base.toString().endsWith("/") ? base.toString() : base + "/";
        return List.of(
                Map.of("href", root + "v1/" + path, "rel", "self"),
                Map.of("href", root + path, "rel", "bookmark"));
    }

    /** A dictionary the conductor stored as JSON text; anything else there is a bug, not a client error. */
    public static Map<String, Object> dict(String json) {
        try {
            return JSON.readValue(json, DICT);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored dictionary is not JSON: " + json, e);
        }
    }

    /** A time as Ironic renders it; null stays null. */
    public static String time(Instant instant) {
        return instant == null ? null : TIME.format(instant.atOffset(ZoneOffset.UTC));
    }
}
