package io.ironflow.deploy.infra;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** A valid record of any schema: defaults where the schema has them, else the simplest value of each type. */
final class SampleRecords {

    private SampleRecords() {
    }

    static GenericRecord of(Schema schema) {
        GenericData.Record record = new GenericData.Record(schema);
        for (Schema.Field field : schema.getFields()) {
            record.put(field.pos(), field.hasDefaultValue() ? GenericData.get().getDefaultValue(field) : value(field.schema()));
        }
        return record;
    }

    private static Object value(Schema schema) {
        return switch (schema.getType()) {
            case RECORD -> of(schema);
            case UNION -> schema.getTypes().get(0).getType() == Schema.Type.NULL ? null : value(schema.getTypes().get(0));
            case ENUM -> new GenericData.EnumSymbol(schema, schema.getEnumSymbols().get(0));
            case STRING -> "";
            case BYTES -> ByteBuffer.allocate(0);
            case FIXED -> new GenericData.Fixed(schema, new byte[schema.getFixedSize()]);
            case INT -> 0;
            case LONG -> 0L;
            case FLOAT -> 0f;
            case DOUBLE -> 0d;
            case BOOLEAN -> false;
            case ARRAY -> List.of();
            case MAP -> Map.of();
            case NULL -> null;
        };
    }
}
