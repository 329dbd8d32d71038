package io.ironflow.api.openapi;

import io.ironflow.api.nodes.NodeDocument;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Makes the generated OpenAPI document (docs/openapi.yaml, /q/openapi) a contract a client generator can use: the
 * resources return maps, so the scanner sees only "an object"; this filter adds what Ironic's API reference says,
 * from the same code the API runs: the node schema from {@link NodeDocument#FIELDS} with each field's version from
 * {@link Microversions}, the request bodies, each operation's success status, Ironic's error body for every 4xx
 * and 5xx, the microversion request and response headers, and the node list's query parameters.
 */
public class IronicContract implements OASFilter {

    private static final String JSON = "application/json";
    private static final Set<String> OBJECTS = Set.of("driver_info", "driver_internal_info", "properties", "extra",
            "instance_info", "clean_step", "deploy_step", "raid_config", "target_raid_config", "network_data");
    private static final Set<String> BOOLEANS = Set.of("maintenance", "console_enabled", "retired", "protected",
            "automated_clean", "secure_boot");
    private static final List<String> LIST_PARAMETERS = List.of("limit", "marker", "sort_key", "sort_dir", "fields",
            "detail", "provision_state", "driver", "resource_class", "owner", "lessee", "conductor_group", "conductor",
            "fault", "maintenance", "retired", "associated", "instance_uuid", "project", "description_contains",
            "shard", "sharded");

    /** An operation's answer on success: its status, and the schema of its body (null: no body). */
    private record Success(int status, String schema) {
    }

    /** Per "METHOD path": the request body's schema (or null) and the success answer. */
    private record Contract(String request, Success success) {
    }

    private static final Map<String, Contract> CONTRACTS = contracts();

    private static Map<String, Contract> contracts() {
        Map<String, Contract> c = new LinkedHashMap<>();
        c.put("GET /", new Contract(null, new Success(200, "Versions")));
        c.put("GET /v1", new Contract(null, new Success(200, "V1")));
        c.put("GET /v1/drivers", new Contract(null, new Success(200, "DriverCollection")));
        c.put("GET /v1/drivers/{name}", new Contract(null, new Success(200, "Driver")));
        c.put("GET /v1/drivers/{name}/properties", new Contract(null, new Success(200, "Dictionary")));
        c.put("GET /v1/nodes", new Contract(null, new Success(200, "NodeCollection")));
        c.put("POST /v1/nodes", new Contract("NodeCreate", new Success(201, "Node")));
        c.put("GET /v1/nodes/detail", new Contract(null, new Success(200, "NodeCollection")));
        c.put("GET /v1/nodes/{ident}", new Contract(null, new Success(200, "Node")));
        c.put("PATCH /v1/nodes/{ident}", new Contract("JsonPatch", new Success(200, "Node")));
        c.put("DELETE /v1/nodes/{ident}", new Contract(null, new Success(204, null)));
        c.put("GET /v1/nodes/{ident}/bios", new Contract(null, new Success(200, "BiosCollection")));
        c.put("GET /v1/nodes/{ident}/bios/{setting}", new Contract(null, new Success(200, "BiosSettingByName")));
        c.put("GET /v1/nodes/{ident}/cleaning/steps", new Contract(null, new Success(200, "CleanSteps")));
        c.put("GET /v1/nodes/{ident}/history", new Contract(null, new Success(200, "HistoryCollection")));
        c.put("GET /v1/nodes/{ident}/history/detail", new Contract(null, new Success(200, "HistoryCollection")));
        c.put("GET /v1/nodes/{ident}/history/{event}", new Contract(null, new Success(200, "HistoryEntry")));
        c.put("GET /v1/nodes/{ident}/inventory", new Contract(null, new Success(200, "Inventory")));
        c.put("PUT /v1/nodes/{ident}/maintenance", new Contract("Maintenance", new Success(202, null)));
        c.put("DELETE /v1/nodes/{ident}/maintenance", new Contract(null, new Success(202, null)));
        c.put("GET /v1/nodes/{ident}/states", new Contract(null, new Success(200, "States")));
        c.put("PUT /v1/nodes/{ident}/states/boot_mode", new Contract("BootModeTarget", new Success(202, null)));
        c.put("PUT /v1/nodes/{ident}/states/secure_boot", new Contract("SecureBootTarget", new Success(202, null)));
        c.put("PUT /v1/nodes/{ident}/states/power", new Contract("PowerTarget", new Success(202, null)));
        c.put("PUT /v1/nodes/{ident}/states/provision", new Contract("ProvisionTarget", new Success(202, null)));
        c.put("GET /v1/nodes/{ident}/traits", new Contract(null, new Success(200, "Traits")));
        c.put("PUT /v1/nodes/{ident}/traits", new Contract("Traits", new Success(204, null)));
        c.put("DELETE /v1/nodes/{ident}/traits", new Contract(null, new Success(204, null)));
        c.put("PUT /v1/nodes/{ident}/traits/{trait}", new Contract(null, new Success(204, null)));
        c.put("DELETE /v1/nodes/{ident}/traits/{trait}", new Contract(null, new Success(204, null)));
        c.put("GET /v1/nodes/{ident}/validate", new Contract(null, new Success(200, "Validation")));
        c.put("GET /v1/shards", new Contract(null, new Success(200, "Shards")));
        c.put("GET /v1/ports", new Contract(null, new Success(200, "PortCollection")));
        c.put("GET /v1/ports/detail", new Contract(null, new Success(200, "PortCollection")));
        c.put("POST /v1/ports", new Contract("PortCreate", new Success(201, "Port")));
        c.put("GET /v1/ports/{uuid}", new Contract(null, new Success(200, "Port")));
        c.put("PATCH /v1/ports/{uuid}", new Contract("JsonPatch", new Success(200, "Port")));
        c.put("DELETE /v1/ports/{uuid}", new Contract(null, new Success(204, null)));
        c.put("GET /v1/nodes/{ident}/ports", new Contract(null, new Success(200, "PortCollection")));
        c.put("GET /v1/nodes/{ident}/ports/detail", new Contract(null, new Success(200, "PortCollection")));
        c.put("GET /v1/portgroups", new Contract(null, new Success(200, "PortgroupCollection")));
        c.put("GET /v1/portgroups/detail", new Contract(null, new Success(200, "PortgroupCollection")));
        c.put("POST /v1/portgroups", new Contract("PortgroupCreate", new Success(201, "Portgroup")));
        c.put("GET /v1/portgroups/{ident}", new Contract(null, new Success(200, "Portgroup")));
        c.put("PATCH /v1/portgroups/{ident}", new Contract("JsonPatch", new Success(200, "Portgroup")));
        c.put("DELETE /v1/portgroups/{ident}", new Contract(null, new Success(204, null)));
        c.put("GET /v1/portgroups/{ident}/ports", new Contract(null, new Success(200, "PortCollection")));
        c.put("GET /v1/portgroups/{ident}/ports/detail", new Contract(null, new Success(200, "PortCollection")));
        c.put("GET /v1/nodes/{ident}/portgroups", new Contract(null, new Success(200, "PortgroupCollection")));
        c.put("GET /v1/nodes/{ident}/portgroups/detail", new Contract(null, new Success(200, "PortgroupCollection")));
        c.put("GET /v1/nodes/{ident}/vifs", new Contract(null, new Success(200, "Vifs")));
        c.put("POST /v1/nodes/{ident}/vifs", new Contract("Vif", new Success(204, null)));
        c.put("DELETE /v1/nodes/{ident}/vifs/{vif}", new Contract(null, new Success(204, null)));
        return c;
    }

    /** Every operation of the API, for the test that keeps this table complete. */
    public static Set<String> operations() {
        return CONTRACTS.keySet();
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Components components = openAPI.getComponents() == null ? OASFactory.createComponents() : openAPI.getComponents();
        schemas().forEach(components::addSchema);
        components.addParameter("Version", header(ApiVersion.HEADER, "The microversion asked for: 1.N (1.1 to "
                + ApiVersion.MAX + ") or latest; none means 1.1. An unserved one is 406."));
        components.addParameter("StandardVersion", header(ApiVersion.STANDARD_HEADER,
                "The microversion as 'baremetal 1.N'; wins over " + ApiVersion.HEADER + "."));
        openAPI.setComponents(components);
        if (openAPI.getPaths() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> item.getOperations().forEach((method, operation) ->
                describe(method.name() + " " + path, operation)));
    }

    private static void describe(String key, Operation operation) {
        Contract contract = CONTRACTS.get(key);
        if (contract == null) {
            return; // the test fails on an operation missing here
        }
        operation.addParameter(OASFactory.createParameter().ref("Version"));
        operation.addParameter(OASFactory.createParameter().ref("StandardVersion"));
        if (key.equals("GET /v1/nodes") || key.equals("GET /v1/nodes/detail")) {
            for (String name : LIST_PARAMETERS) {
                operation.addParameter(OASFactory.createParameter().name(name).in(Parameter.In.QUERY)
                        .description(since(Microversions.sinceListParameter(name)))
                        .schema(name.equals("limit") ? type(Schema.SchemaType.INTEGER) : type(Schema.SchemaType.STRING)));
            }
        }
        if (contract.request() != null) {
            operation.setRequestBody(OASFactory.createRequestBody().required(true).content(json(contract.request())));
        }
        APIResponses responses = OASFactory.createAPIResponses();
        Success success = contract.success();
        APIResponse ok = OASFactory.createAPIResponse().description(description(success.status()));
        if (success.schema() != null) {
            ok.content(json(success.schema()));
        }
        versionHeaders(ok);
        if (success.status() == 202 && key.contains("/states/")) {
            ok.addHeader("Location", OASFactory.createHeader().description("The node's states").schema(type(Schema.SchemaType.STRING)));
        }
        responses.addAPIResponse(String.valueOf(success.status()), ok);
        for (int status : List.of(400, 404, 406, 409, 413, 500, 503)) {
            responses.addAPIResponse(String.valueOf(status), versionHeaders(OASFactory.createAPIResponse()
                    .description(description(status)).content(json("Error"))));
        }
        operation.setResponses(responses);
    }

    private static APIResponse versionHeaders(APIResponse response) {
        for (String name : List.of(ApiVersion.MIN_HEADER, ApiVersion.MAX_HEADER, ApiVersion.HEADER)) {
            Header header = OASFactory.createHeader().schema(type(Schema.SchemaType.STRING));
            response.addHeader(name, header);
        }
        return response;
    }

    private static String description(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 202 -> "Accepted: the conductor took the change; watch the node's states";
            case 204 -> "No Content";
            case 400 -> "Bad request: the body, a parameter or the change is invalid";
            case 404 -> "Not found (also a sub-resource older than the requested version)";
            case 406 -> "Not acceptable: a version not served, or a field, verb or parameter newer than the requested version";
            case 409 -> "Conflict: the node is locked or its state forbids the change";
            case 413 -> "The body is over 114,688 bytes";
            case 500 -> "An internal server error occurred";
            default -> "Service unavailable: no conductor answered in time, or the database is down; retry";
        };
    }

    private static Parameter header(String name, String description) {
        return OASFactory.createParameter().name(name).in(Parameter.In.HEADER).required(false).description(description)
                .schema(type(Schema.SchemaType.STRING));
    }

    private static Content json(String schema) {
        return OASFactory.createContent().addMediaType(JSON, OASFactory.createMediaType()
                .schema(OASFactory.createSchema().ref(schema)));
    }

    private static Schema type(Schema.SchemaType type) {
        return OASFactory.createSchema().addType(type);
    }

    private static Schema nullable(Schema.SchemaType type) {
        return OASFactory.createSchema().addType(type).addType(Schema.SchemaType.NULL);
    }

    /** Properties in the order given by a LinkedHashMap, else by name: the document must be the same every run. */
    private static Schema object(Map<String, Schema> properties) {
        Schema schema = type(Schema.SchemaType.OBJECT);
        (properties instanceof LinkedHashMap ? properties : new TreeMap<>(properties)).forEach(schema::addProperty);
        return schema;
    }

    private static Schema array(Schema items) {
        return type(Schema.SchemaType.ARRAY).items(items);
    }

    private static Schema ref(String name) {
        return OASFactory.createSchema().ref(name);
    }

    private static String since(int minor) {
        return "Since API 1." + minor + ".";
    }

    private static Map<String, Schema> schemas() {
        Map<String, Schema> s = new LinkedHashMap<>();
        s.put("Error", object(Map.of("error_message", type(Schema.SchemaType.STRING)
                .description("JSON text of {\"faultcode\": \"Client\"|\"Server\", \"faultstring\": <message>, \"debuginfo\": null}"))));
        s.put("Link", object(Map.of("href", type(Schema.SchemaType.STRING), "rel", type(Schema.SchemaType.STRING),
                "type", type(Schema.SchemaType.STRING))).addRequired("href").addRequired("rel"));
        s.put("Links", array(ref("Link")));
        s.put("Dictionary", type(Schema.SchemaType.OBJECT).additionalPropertiesBoolean(true));
        s.put("Node", node(false));
        s.put("NodeCreate", node(true));
        Map<String, Schema> collection = new LinkedHashMap<>();
        collection.put("nodes", array(ref("Node")));
        collection.put("next", type(Schema.SchemaType.STRING).description("The next page, after a full one"));
        collection.put("nodes_links", ref("Links"));
        s.put("NodeCollection", object(collection).addRequired("nodes"));
        Schema operation = object(Map.of("op", type(Schema.SchemaType.STRING).enumeration(List.of("add", "replace", "remove")),
                "path", type(Schema.SchemaType.STRING), "value", OASFactory.createSchema()));
        s.put("JsonPatch", array(operation.addRequired("op").addRequired("path")).minItems(1));
        Map<String, Schema> provision = new LinkedHashMap<>();
        provision.put("target", type(Schema.SchemaType.STRING).enumeration(List.of("manage", "provide", "inspect", "clean",
                "active", "deploy", "rebuild", "deleted", "undeploy", "rescue", "unrescue", "abort", "adopt")));
        provision.put("clean_steps", array(object(Map.of("interface", type(Schema.SchemaType.STRING),
                "step", type(Schema.SchemaType.STRING), "args", type(Schema.SchemaType.OBJECT)))));
        provision.put("rescue_password", type(Schema.SchemaType.STRING));
        provision.put("configdrive", OASFactory.createSchema().addType(Schema.SchemaType.STRING).addType(Schema.SchemaType.OBJECT));
        provision.put("disable_ramdisk", type(Schema.SchemaType.BOOLEAN).description(since(70) + " With clean only."));
        s.put("ProvisionTarget", object(provision).addRequired("target"));
        s.put("PowerTarget", object(Map.of("target", type(Schema.SchemaType.STRING).enumeration(List.of("power on",
                "power off", "rebooting", "soft power off", "soft rebooting")), "timeout", type(Schema.SchemaType.INTEGER)))
                .addRequired("target"));
        s.put("BootModeTarget", object(Map.of("target", type(Schema.SchemaType.STRING).enumeration(List.of("bios", "uefi"))))
                .addRequired("target").description(since(75)));
        s.put("SecureBootTarget", object(Map.of("target", type(Schema.SchemaType.BOOLEAN))).addRequired("target")
                .description(since(75)));
        s.put("Maintenance", object(Map.of("reason", nullable(Schema.SchemaType.STRING))));
        s.put("Traits", object(Map.of("traits", array(type(Schema.SchemaType.STRING).maxLength(255)
                .pattern("^([A-Z0-9_]+)$")).maxItems(50))).addRequired("traits").description(since(37)
                + " Standard os-traits names or CUSTOM_[A-Z0-9_]+."));
        Map<String, Schema> states = new LinkedHashMap<>();
        for (String field : List.of("console_enabled", "last_error", "power_state", "provision_state",
                "provision_updated_at", "raid_config", "target_power_state", "target_provision_state", "target_raid_config")) {
            states.put(field, fieldSchema(field));
        }
        s.put("States", object(states));
        Map<String, Schema> bios = new LinkedHashMap<>();
        bios.put("name", type(Schema.SchemaType.STRING));
        bios.put("value", nullable(Schema.SchemaType.STRING));
        bios.put("links", ref("Links"));
        for (String field : List.of("created_at", "updated_at", "attribute_type", "allowable_values", "lower_bound",
                "max_length", "min_length", "read_only", "reset_required", "unique", "upper_bound")) {
            bios.put(field, OASFactory.createSchema().description(since(74) + " With detail; null for fake-hardware."));
        }
        s.put("BiosSetting", object(bios).addRequired("name").addRequired("value"));
        s.put("BiosCollection", object(Map.of("bios", array(ref("BiosSetting")))).description(since(40)));
        s.put("BiosSettingByName", type(Schema.SchemaType.OBJECT).additionalPropertiesSchema(ref("BiosSetting"))
                .description("{\"<setting name>\": BiosSetting}"));
        Map<String, Schema> inventory = new LinkedHashMap<>();
        for (String field : List.of("cpu", "memory", "system_vendor", "boot")) {
            inventory.put(field, type(Schema.SchemaType.OBJECT));
        }
        inventory.put("disks", array(type(Schema.SchemaType.OBJECT)));
        inventory.put("interfaces", array(type(Schema.SchemaType.OBJECT)));
        inventory.put("bmc_address", type(Schema.SchemaType.STRING));
        s.put("Inventory", object(Map.of("inventory", object(inventory).description("ironic-python-agent's hardware inventory"),
                "plugin_data", type(Schema.SchemaType.OBJECT).description("the inspector's data: macs, all_interfaces,"
                        + " valid_interfaces, boot_interface, root_disk")))
                .addRequired("inventory").addRequired("plugin_data").description(since(81)));
        Map<String, Schema> history = new LinkedHashMap<>();
        history.put("uuid", type(Schema.SchemaType.STRING).format("uuid"));
        history.put("created_at", type(Schema.SchemaType.STRING).format("date-time"));
        history.put("severity", type(Schema.SchemaType.STRING).enumeration(List.of("INFO", "ERROR")));
        history.put("event_type", type(Schema.SchemaType.STRING).description("With detail"));
        history.put("event", type(Schema.SchemaType.STRING));
        history.put("conductor", nullable(Schema.SchemaType.STRING).description("With detail"));
        history.put("user", nullable(Schema.SchemaType.STRING).description("With detail: the intent's requester"));
        history.put("links", ref("Links"));
        s.put("HistoryEntry", object(history).addRequired("uuid").addRequired("created_at").addRequired("severity")
                .addRequired("event").description(since(78)));
        s.put("HistoryCollection", object(Map.of("history", array(ref("HistoryEntry")), "next", type(Schema.SchemaType.STRING)))
                .addRequired("history"));
        s.put("Shards", object(Map.of("shards", array(object(Map.of("name", type(Schema.SchemaType.STRING),
                "count", type(Schema.SchemaType.INTEGER)))))).description(since(82)));
        Map<String, Schema> driver = new LinkedHashMap<>();
        driver.put("name", type(Schema.SchemaType.STRING));
        driver.put("hosts", array(type(Schema.SchemaType.STRING)));
        driver.put("type", type(Schema.SchemaType.STRING).enumeration(List.of("classic", "dynamic")));
        driver.put("links", ref("Links"));
        driver.put("properties", ref("Links"));
        s.put("Driver", object(driver).additionalPropertiesSchema(OASFactory.createSchema()
                .description("default_<type>_interface, enabled_<type>_interfaces (detail)")));
        s.put("DriverCollection", object(Map.of("drivers", array(ref("Driver")))));
        s.put("CleanSteps", array(object(Map.of("interface", type(Schema.SchemaType.STRING), "step", type(Schema.SchemaType.STRING),
                "priority", type(Schema.SchemaType.INTEGER), "abortable", type(Schema.SchemaType.BOOLEAN),
                "args", type(Schema.SchemaType.ARRAY)))));
        s.put("Validation", type(Schema.SchemaType.OBJECT).additionalPropertiesSchema(object(Map.of(
                "result", nullable(Schema.SchemaType.BOOLEAN), "reason", nullable(Schema.SchemaType.STRING)))));
        Map<String, Schema> port = new LinkedHashMap<>();
        port.put("uuid", type(Schema.SchemaType.STRING).format("uuid"));
        port.put("address", type(Schema.SchemaType.STRING).description("MAC address, lower case; unique (409)"));
        port.put("node_uuid", type(Schema.SchemaType.STRING).format("uuid"));
        port.put("portgroup_uuid", nullable(Schema.SchemaType.STRING).description(since(24) + " A portgroup of the same node."));
        port.put("local_link_connection", type(Schema.SchemaType.OBJECT).description(since(19)));
        port.put("pxe_enabled", type(Schema.SchemaType.BOOLEAN).description(since(19)));
        port.put("physical_network", nullable(Schema.SchemaType.STRING).description(since(34)));
        port.put("internal_info", type(Schema.SchemaType.OBJECT).description(since(18) + " tenant_vif_port_id: the attached VIF."));
        port.put("extra", type(Schema.SchemaType.OBJECT));
        port.put("is_smartnic", type(Schema.SchemaType.BOOLEAN).description(since(53) + " Always false."));
        port.put("created_at", type(Schema.SchemaType.STRING).format("date-time"));
        port.put("updated_at", nullable(Schema.SchemaType.STRING).format("date-time"));
        port.put("links", ref("Links"));
        s.put("Port", object(port));
        Map<String, Schema> create = new LinkedHashMap<>();
        for (String field : List.of("uuid", "address", "node_uuid", "pxe_enabled", "physical_network",
                "local_link_connection", "extra", "portgroup_uuid")) {
            create.put(field, OASFactory.createSchema().addType(port.get(field).getType().get(0))
                    .description(port.get(field).getDescription()));
        }
        create.get("pxe_enabled").addType(Schema.SchemaType.STRING); // "false", as the CLI sends it
        s.put("PortCreate", object(create).addRequired("address").addRequired("node_uuid").additionalPropertiesBoolean(false));
        Map<String, Schema> ports = new LinkedHashMap<>();
        ports.put("ports", array(ref("Port")));
        ports.put("next", type(Schema.SchemaType.STRING));
        ports.put("ports_links", ref("Links"));
        s.put("PortCollection", object(ports).addRequired("ports"));
        Map<String, Schema> portgroup = new LinkedHashMap<>();
        portgroup.put("uuid", type(Schema.SchemaType.STRING).format("uuid"));
        portgroup.put("address", nullable(Schema.SchemaType.STRING).description("MAC address, lower case; unique (409)"));
        portgroup.put("name", nullable(Schema.SchemaType.STRING).description("A logical name; unique (409)"));
        portgroup.put("node_uuid", type(Schema.SchemaType.STRING).format("uuid"));
        portgroup.put("standalone_ports_supported", type(Schema.SchemaType.BOOLEAN));
        portgroup.put("internal_info", type(Schema.SchemaType.OBJECT));
        portgroup.put("extra", type(Schema.SchemaType.OBJECT));
        portgroup.put("mode", type(Schema.SchemaType.STRING).description(since(26) + " Default active-backup."));
        portgroup.put("properties", type(Schema.SchemaType.OBJECT).description(since(26)));
        portgroup.put("created_at", type(Schema.SchemaType.STRING).format("date-time"));
        portgroup.put("updated_at", nullable(Schema.SchemaType.STRING).format("date-time"));
        portgroup.put("links", ref("Links"));
        portgroup.put("ports", ref("Links"));
        s.put("Portgroup", object(portgroup).description(since(23)));
        Map<String, Schema> portgroupCreate = new LinkedHashMap<>();
        for (String field : List.of("uuid", "address", "name", "node_uuid", "extra", "mode", "properties")) {
            portgroupCreate.put(field, OASFactory.createSchema().addType(portgroup.get(field).getType().get(0))
                    .description(portgroup.get(field).getDescription()));
        }
        portgroupCreate.put("standalone_ports_supported", OASFactory.createSchema().addType(Schema.SchemaType.BOOLEAN)
                .addType(Schema.SchemaType.STRING));
        s.put("PortgroupCreate", object(portgroupCreate).addRequired("node_uuid").additionalPropertiesBoolean(false));
        Map<String, Schema> portgroups = new LinkedHashMap<>();
        portgroups.put("portgroups", array(ref("Portgroup")));
        portgroups.put("next", type(Schema.SchemaType.STRING));
        portgroups.put("portgroups_links", ref("Links"));
        s.put("PortgroupCollection", object(portgroups).addRequired("portgroups"));
        s.put("Vif", object(Map.of("id", type(Schema.SchemaType.STRING))).addRequired("id").description(since(28)));
        s.put("Vifs", object(Map.of("vifs", array(ref("Vif")))).addRequired("vifs"));
        Map<String, Schema> version = new LinkedHashMap<>();
        version.put("id", type(Schema.SchemaType.STRING));
        version.put("links", ref("Links"));
        version.put("status", type(Schema.SchemaType.STRING));
        version.put("min_version", type(Schema.SchemaType.STRING));
        version.put("version", type(Schema.SchemaType.STRING));
        s.put("Version", object(version));
        s.put("Versions", object(Map.of("name", type(Schema.SchemaType.STRING), "description", type(Schema.SchemaType.STRING),
                "default_version", ref("Version"), "versions", array(ref("Version")))));
        s.put("V1", object(Map.of("id", type(Schema.SchemaType.STRING), "links", ref("Links"),
                "media_types", type(Schema.SchemaType.ARRAY), "nodes", ref("Links"), "drivers", ref("Links"),
                "version", ref("Version"))));
        return s;
    }

    /** The node document: every field NodeDocument renders, with the version it came with. */
    private static Schema node(boolean create) {
        Schema node = type(Schema.SchemaType.OBJECT);
        for (String field : NodeDocument.FIELDS) {
            if (create && !CREATABLE.contains(field)) {
                continue;
            }
            Schema schema = fieldSchema(field);
            node.addProperty(field, schema.description(since(Microversions.since(field))
                    + (create ? "" : " Shown from that version on.")));
        }
        return create ? node.addRequired("driver").additionalPropertiesBoolean(false) : node;
    }

    private static final Set<String> CREATABLE = Set.of("uuid", "name", "driver", "driver_info", "properties", "extra",
            "instance_info", "resource_class", "owner", "lessee", "description", "automated_clean", "conductor_group",
            "network_data", "shard");

    private static Schema fieldSchema(String field) {
        if (OBJECTS.contains(field)) {
            return type(Schema.SchemaType.OBJECT);
        }
        if (BOOLEANS.contains(field)) {
            return nullable(Schema.SchemaType.BOOLEAN);
        }
        if (field.equals("traits")) {
            return array(type(Schema.SchemaType.STRING));
        }
        if (field.equals("links") || field.equals("states")) {
            return ref("Links");
        }
        Schema text = nullable(Schema.SchemaType.STRING);
        if (field.endsWith("_at")) {
            text.format("date-time");
        }
        if (field.equals("uuid") || field.endsWith("_uuid")) {
            text.format("uuid");
        }
        return text;
    }
}
