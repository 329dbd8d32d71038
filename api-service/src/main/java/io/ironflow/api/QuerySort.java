package io.ironflow.api;

import io.ironflow.api.errors.ApiError;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.Locale;

/**
 * Ironic's {@code sort_key} and {@code sort_dir} of the lists sorted by creation (ports, portgroups): the key is
 * {@code id} (the default) or {@code created_at}, the direction {@code asc} (the default) or {@code desc}, any case;
 * anything else is a 400 in Ironic's words.
 */
public record QuerySort(String key, String dir) {

    public static QuerySort parse(MultivaluedMap<String, String> query) {
        String key = query.getFirst("sort_key") == null ? "id" : query.getFirst("sort_key");
        if (!key.equals("id") && !key.equals("created_at")) {
            throw ApiError.badRequest("The sort_key value \"" + key + "\" is an invalid field for sorting");
        }
        String dir = query.getFirst("sort_dir") == null ? "asc" : query.getFirst("sort_dir").toLowerCase(Locale.ROOT);
        if (!dir.equals("asc") && !dir.equals("desc")) {
            throw ApiError.badRequest("Invalid sort direction: " + dir + ". Acceptable values are 'asc' or 'desc'");
        }
        return new QuerySort(key, dir);
    }
}
