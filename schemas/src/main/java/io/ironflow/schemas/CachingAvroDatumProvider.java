package io.ironflow.schemas;

import io.apicurio.registry.serde.avro.DefaultAvroDatumProvider;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * The registry serde's datum provider, with its readers and writers cached by the schema itself. Apicurio's own
 * caches them by the schema's parsing fingerprint, which it computes again for every record (normalising the
 * schema to text and hashing it: up to a fifth of a consuming service's CPU in the benchmark's profiles). The
 * schemas a serde sees are the few instances its registry cache and the generated classes hold, so a map keyed by
 * them finds the reader in one hash lookup ({@link Schema} keeps its hash code); a bound keeps it small should a
 * caller ever hand in fresh instances. Every Kafka client gets it from {@link CachingAvroDatumProviderCustomizer}.
 */
public class CachingAvroDatumProvider<T> extends DefaultAvroDatumProvider<T> {

    private static final int BOUND = 256;

    private final Map<Schema, DatumReader<T>> readers = new ConcurrentHashMap<>();
    private final Map<Schema, DatumWriter<T>> specificWriters = new ConcurrentHashMap<>();
    private final Map<Schema, DatumWriter<T>> genericWriters = new ConcurrentHashMap<>();

    public CachingAvroDatumProvider() {
    }

    @Override
    public DatumReader<T> createDatumReader(Schema schema) {
        return cached(readers, schema, () -> super.createDatumReader(schema));
    }

    @Override
    public DatumWriter<T> createDatumWriter(T data, Schema schema) {
        return cached(data instanceof SpecificRecord ? specificWriters : genericWriters, schema,
                () -> super.createDatumWriter(data, schema));
    }

    private static <V> V cached(Map<Schema, V> cache, Schema schema, java.util.function.Supplier<V> create) {
        V found = cache.get(schema);
        if (found != null) {
            return found;
        }
        if (cache.size() >= BOUND) {
            cache.clear();
        }
        V created = create.get();
        cache.put(schema, created);
        return created;
    }
}
