package io.ironflow.api;

import io.ironflow.api.errors.ApiError;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ironic's {@code sort_key} and {@code sort_dir} of the port and portgroup lists: any column Ironic sorts by (its
 * dictionaries excepted), {@code id} by default; {@code asc} (the default) or {@code desc}, any case; anything else
 * is a 400 in Ironic's words. {@link #expression} is the key as SQL, NULLs folded so that a page's keyset
 * {@code (expression, id)} neither skips nor repeats rows.
 */
public record QuerySort(String key, String expression, boolean descending) {

    /** The port columns Ironic sorts by (not extra, internal_info, local_link_connection). */
    public static final Map<String, String> PORTS = keys(List.of("address", "physical_network"), List.of("pxe_enabled"));
    /** The portgroup columns Ironic sorts by (not extra, internal_info, properties). */
    public static final Map<String, String> PORTGROUPS = keys(List.of("address", "name", "mode"),
            List.of("standalone_ports_supported"));

    public static QuerySort parse(MultivaluedMap<String, String> query, Map<String, String> keys) {
        String key = query.getFirst("sort_key") == null ? "id" : query.getFirst("sort_key");
        if (!keys.containsKey(key)) {
            throw ApiError.badRequest("The sort_key value \"" + key + "\" is an invalid field for sorting");
        }
        String dir = query.getFirst("sort_dir") == null ? "asc" : query.getFirst("sort_dir").toLowerCase(Locale.ROOT);
        if (!dir.equals("asc") && !dir.equals("desc")) {
            throw ApiError.badRequest("Invalid sort direction: " + dir + ". Acceptable values are 'asc' or 'desc'");
        }
        return new QuerySort(key, keys.get(key), dir.equals("desc"));
    }

    /**
     * The SQL after {@code WHERE} that keeps the rows of {@code table} after the one whose uuid is parameter
     * {@code marker}, and the ORDER BY, both by {@code (expression, id)}.
     */
    public String after(String table, int marker) {
        if (expression.equals("id")) {
            return "id " + (descending ? "<" : ">") + " (SELECT id FROM " + table + " WHERE uuid = $" + marker + ")";
        }
        return "(" + expression + ", id) " + (descending ? "<" : ">") + " (SELECT " + expression + ", id FROM " + table
                + " WHERE uuid = $" + marker + ")";
    }

    public String orderBy() {
        String direction = descending ? " DESC" : "";
        return expression.equals("id") ? "id" + direction : expression + direction + ", id" + direction;
    }

    private static Map<String, String> keys(List<String> texts, List<String> flags) {
        Map<String, String> keys = new HashMap<>();
        keys.put("id", "id");
        keys.put("uuid", "uuid");
        keys.put("created_at", "created_at");
        keys.put("updated_at", "COALESCE(updated_at, '-infinity'::timestamptz)");
        texts.forEach(text -> keys.put(text, "COALESCE(" + text + ", '')"));
        flags.forEach(flag -> keys.put(flag, "COALESCE(" + flag + ", true)"));
        return Map.copyOf(keys);
    }
}
