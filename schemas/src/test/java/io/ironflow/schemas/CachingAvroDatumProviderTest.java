package io.ironflow.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.BinaryEncoder;
import org.junit.jupiter.api.Test;

/** One reader and one writer per schema, and records written and read through them come back equal. */
class CachingAvroDatumProviderTest {

    @Test
    void aSchemaGetsOneReaderAndOneWriterThatRoundTrip() throws Exception {
        CachingAvroDatumProvider<Object> provider = new CachingAvroDatumProvider<>();
        provider.setUseSpecificAvroReader(true);
        IntentResult result = IntentResult.newBuilder().setIntentId("i-1").setNodeUuid("n-1").setAccepted(true)
                .setCode(202).setErrorMessage(null).setNode(null).setConductor("c").setCompletedAt(Instant.ofEpochMilli(1)).build();
        var writer = provider.createDatumWriter(result, result.getSchema());
        assertSame(writer, provider.createDatumWriter(result, IntentResult.getClassSchema()));
        var reader = provider.createDatumReader(IntentResult.getClassSchema());
        assertSame(reader, provider.createDatumReader(IntentResult.getClassSchema()));
        assertNotSame(reader, provider.createDatumReader(NodeEvent.getClassSchema()));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        writer.write(result, encoder);
        encoder.flush();
        Object back = reader.read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertEquals(result, back);
    }
}
