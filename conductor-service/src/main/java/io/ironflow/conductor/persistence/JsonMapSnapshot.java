package io.ironflow.conductor.persistence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hibernate.type.descriptor.java.MutableMutabilityPlan;

/**
 * How Hibernate snapshots a JSON column's map to see at flush whether it changed: a structural copy (every map and
 * list copied, the leaves shared). Hibernate's own plan for a JSON attribute serializes the value to JSON text and
 * parses it back, for each of the node's nine JSON columns at every load: 2-3 % of the conductor's CPU. The leaves
 * a JSON value holds (strings, numbers, booleans, null) are immutable, so sharing them loses nothing; a leaf of
 * another type (which the column would store as its JSON form) is shared too, and must not be changed in place.
 */
public final class JsonMapSnapshot extends MutableMutabilityPlan<Map<String, Object>> {

    @Override
    @SuppressWarnings("unchecked")
    protected Map<String, Object> deepCopyNotNull(Map<String, Object> value) {
        return (Map<String, Object>) copy(value);
    }

    private static Object copy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 2));
            map.forEach((key, item) -> copy.put(key, copy(item)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(copy(item)));
            return copy;
        }
        return value;
    }
}
