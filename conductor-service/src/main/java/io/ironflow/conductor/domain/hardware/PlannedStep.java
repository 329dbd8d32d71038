package io.ironflow.conductor.domain.hardware;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One step the conductor will run, in Ironic's {@code clean_step} shape. Stored as JSON (jsonb), so
 * {@link #toJson()} and {@link #fromJson(Map)} round-trip.
 */
public record PlannedStep(String interfaceName, String step, int priority, boolean abortable, Map<String, Object> args) {

    public PlannedStep {
        // LinkedHashMap, not Map.copyOf: keeps the user's key order and allows JSON null values.
        args = Collections.unmodifiableMap(new LinkedHashMap<>(args == null ? Map.of() : args));
    }

    /** A non-clean operation (deploy, inspect, rescue...) run through the same {@code HardwareDriver.run}. */
    public static PlannedStep operation(String key) {
        return operation(key, Map.of());
    }

    public static PlannedStep operation(String key, Map<String, Object> args) {
        int dot = key.indexOf('.');
        if (dot <= 0 || dot == key.length() - 1) {
            throw new IllegalArgumentException("step key must be interface.step: " + key);
        }
        return new PlannedStep(key.substring(0, dot), key.substring(dot + 1), 0, false, args);
    }

    public String key() {
        return interfaceName + "." + step;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("interface", interfaceName);
        json.put("step", step);
        json.put("priority", priority);
        json.put("abortable", abortable);
        json.put("args", new LinkedHashMap<>(args));
        return json;
    }

    @SuppressWarnings("unchecked")
    public static PlannedStep fromJson(Map<String, Object> json) {
        Object priority = json.get("priority");
        Object args = json.get("args");
        return new PlannedStep((String) json.get("interface"), (String) json.get("step"),
                priority instanceof Number n ? n.intValue() : 0,
                Boolean.TRUE.equals(json.get("abortable")),
                args instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of());
    }
}
