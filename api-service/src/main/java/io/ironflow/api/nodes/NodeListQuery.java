package io.ironflow.api.nodes;

import io.ironflow.api.QueryBooleans;
import io.ironflow.api.QueryLimit;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The query of {@code GET /v1/nodes} as Ironic takes it: filters, {@code fields}, {@code detail}, a page of
 * {@code limit} (at most 1000) after {@code marker} (a node uuid), in {@code sort_key}/{@code sort_dir} order.
 * Each filter is a SQL condition over the node table with its bound value; the page is read by keyset
 * ({@code (sort value, id)} after the marker's), so deep pages cost what the first one does.
 */
record NodeListQuery(List<String> conditions, List<Object> values, String sortKey, boolean descending, int limit,
        UUID marker, List<String> fields, boolean detail) {

    /** Filters compared with equality, by parameter (the column has the parameter's name). */
    private static final Set<String> EQUALITY_FILTERS = Set.of("provision_state", "driver", "resource_class", "owner",
            "lessee", "conductor_group", "conductor", "fault");
    private static final Set<String> BOOLEAN_FILTERS = Set.of("maintenance", "retired", "associated");
    /** Ironic filters Ironflow has no data for: refused rather than silently ignored. */
    private static final Set<String> UNSUPPORTED = Set.of("chassis_uuid", "include_children", "parent_node");
    /** What each sortable field sorts by: nulls folded into a value so the keyset comparison stays total. */
    private static final Map<String, String> SORT_EXPRESSIONS = sortExpressions();
    /** Ironic's node fields; anything else in {@code fields} is refused. */
    static final Set<String> NODE_FIELDS = Set.copyOf(NodeDocument.FIELDS);

    static NodeListQuery parse(Map<String, List<String>> parameters, ApiVersion version, boolean detailPath) {
        List<String> conditions = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        parameters.keySet().forEach(name -> Microversions.requireListParameter(name, version));
        for (String name : UNSUPPORTED) {
            if (parameters.containsKey(name)) {
                throw ApiError.badRequest("Filtering nodes by \"" + name + "\" is not supported by Ironflow.");
            }
        }
        for (String name : EQUALITY_FILTERS) {
            String value = single(parameters, name);
            if (value != null) {
                values.add(value);
                conditions.add(name + " = $" + values.size());
            }
        }
        for (String name : BOOLEAN_FILTERS) {
            String value = single(parameters, name);
            if (value != null) {
                boolean wanted = bool(name, value);
                if (name.equals("associated")) {
                    conditions.add(wanted ? "instance_uuid IS NOT NULL" : "instance_uuid IS NULL");
                } else {
                    values.add(wanted);
                    conditions.add(name + " = $" + values.size());
                }
            }
        }
        String shards = single(parameters, "shard");
        if (shards != null) { // Ironic 1.82: a comma-separated list of shards
            List<String> names = Arrays.stream(shards.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            if (names.isEmpty()) {
                throw ApiError.badRequest("Invalid input for field/attribute shard. Value: '" + shards + "'. Expected a"
                        + " comma-separated list of shards.");
            }
            values.add(names.toArray(String[]::new));
            conditions.add("shard = ANY($" + values.size() + ")");
        }
        String sharded = single(parameters, "sharded");
        if (sharded != null) {
            conditions.add(bool("sharded", sharded) ? "shard IS NOT NULL" : "shard IS NULL");
        }
        String instanceUuid = single(parameters, "instance_uuid");
        if (instanceUuid != null) {
            values.add(uuid("instance_uuid", instanceUuid));
            conditions.add("instance_uuid = $" + values.size());
        }
        String project = single(parameters, "project");
        if (project != null) { // Ironic: the nodes a project owns or leases
            values.add(project);
            conditions.add("(owner = $" + values.size() + " OR lessee = $" + values.size() + ")");
        }
        String contains = single(parameters, "description_contains");
        if (contains != null) {
            values.add(contains);
            conditions.add("strpos(description, $" + values.size() + ") > 0");
        }

        String sortKey = orDefault(single(parameters, "sort_key"), "id");
        if (NODE_FIELDS.contains(sortKey)) { // Ironic's check_allowed_fields([sort_key]): a field too new is 406
            Microversions.requireField(sortKey, version);
        }
        if (!SORT_EXPRESSIONS.containsKey(sortKey)) {
            throw ApiError.badRequest("The sort_key value \"" + sortKey + "\" is an invalid field for sorting");
        }
        String sortDir = orDefault(single(parameters, "sort_dir"), "asc").toLowerCase(Locale.ROOT);
        if (!sortDir.equals("asc") && !sortDir.equals("desc")) {
            throw ApiError.badRequest("Invalid sort direction: " + sortDir + ". Acceptable values are 'asc' or 'desc'");
        }

        int limit = QueryLimit.parse(single(parameters, "limit"));
        String markerText = single(parameters, "marker");
        UUID marker = markerText == null ? null : uuid("marker", markerText);

        boolean detail = detailPath || (single(parameters, "detail") != null && bool("detail", single(parameters, "detail")));
        List<String> fields = fields(single(parameters, "fields"), version);
        if (fields != null && detail) {
            throw ApiError.badRequest("Can not specify ?detail=True and fields in the same request.");
        }
        return new NodeListQuery(conditions, values, sortKey, sortDir.equals("desc"), limit, marker, fields, detail);
    }

    String sortExpression() {
        return SORT_EXPRESSIONS.get(sortKey);
    }

    /**
     * The {@code fields} of a list or show, in Ironic's order: the parameter itself needs 1.8, and a field newer
     * than the requested version is 406 (check_allow_specify_fields, check_allowed_fields); a field no node has is 400.
     */
    static List<String> fields(String value, ApiVersion version) {
        if (value == null) {
            return null;
        }
        Microversions.requireListParameter("fields", version);
        List<String> fields = Arrays.stream(value.split(",")).map(String::trim).filter(f -> !f.isEmpty()).toList();
        fields.stream().filter(NODE_FIELDS::contains).forEach(f -> Microversions.requireField(f, version));
        List<String> invalid = fields.stream().filter(f -> !NODE_FIELDS.contains(f)).toList();
        if (!invalid.isEmpty()) {
            throw ApiError.badRequest("Field(s) \"" + String.join(", ", invalid) + "\" are not valid");
        }
        return fields;
    }

    private static Map<String, String> sortExpressions() {
        Map<String, String> sort = new HashMap<>();
        sort.put("id", "id");
        sort.put("uuid", "uuid");
        for (String text : List.of("name", "driver", "provision_state", "target_provision_state", "power_state",
                "target_power_state", "resource_class", "owner", "lessee", "conductor_group", "conductor",
                "reservation", "description", "last_error", "maintenance_reason", "retired_reason")) {
            sort.put(text, "COALESCE(" + text + ", '')");
        }
        for (String flag : List.of("maintenance", "retired", "automated_clean")) {
            sort.put(flag, "COALESCE(" + flag + ", false)");
        }
        sort.put("instance_uuid", "COALESCE(instance_uuid::text, '')");
        sort.put("created_at", "created_at");
        for (String time : List.of("updated_at", "provision_updated_at")) {
            sort.put(time, "COALESCE(" + time + ", '-infinity'::timestamptz)");
        }
        return Map.copyOf(sort);
    }

    private static String single(Map<String, List<String>> parameters, String name) {
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    private static boolean bool(String name, String value) {
        return QueryBooleans.parse(value, "Invalid value for " + name + ": ");
    }

    private static UUID uuid(String name, String value) {
        UUID uuid = NodeReader.parseUuid(value);
        if (uuid == null) {
            throw ApiError.badRequest("Expected a UUID for " + name + " but received " + value + ".");
        }
        return uuid;
    }
}
