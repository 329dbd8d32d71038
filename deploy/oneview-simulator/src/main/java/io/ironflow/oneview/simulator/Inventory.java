package io.ironflow.oneview.simulator;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The appliance's starting content, read from a JSON file ({@code users}, {@code serverHardware},
 * {@code templates}); the bundled {@code inventory.json} when no file is named. {@code generated} more server
 * hardware items can be added, named "Generated, bay N", for scale tests.
 */
public record Inventory(List<JsonObject> users, List<JsonObject> serverHardware, List<JsonObject> templates) {

    public static Inventory load(String file, int generated) {
        JsonObject json = new JsonObject(read(file));
        List<JsonObject> hardware = objects(json.getJsonArray("serverHardware"));
        List<JsonObject> templates = objects(json.getJsonArray("templates"));
        String typeUri = templates.isEmpty() ? "/rest/server-hardware-types/GENERATED"
                : templates.get(0).getString("serverHardwareTypeUri");
        for (int i = 1; i <= generated; i++) {
            hardware.add(new JsonObject()
                    .put("id", String.format(Locale.ROOT, "9e000000-0000-4000-8000-%012d", i))
                    .put("name", "Generated, bay " + i)
                    .put("serverHardwareTypeUri", typeUri)
                    .put("serverGroupUri", "/rest/enclosure-groups/EG-1")
                    .put("powerState", "Off"));
        }
        return new Inventory(objects(json.getJsonArray("users")), hardware, templates);
    }

    private static String read(String file) {
        try {
            if (file == null || file.isBlank()) {
                try (InputStream in = Inventory.class.getResourceAsStream("/inventory.json")) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the OneView simulator's inventory " + file, e);
        }
    }

    private static List<JsonObject> objects(JsonArray array) {
        List<JsonObject> list = new ArrayList<>();
        if (array != null) {
            for (int i = 0; i < array.size(); i++) {
                list.add(array.getJsonObject(i).copy());
            }
        }
        return list;
    }
}
