package io.ironflow.intents;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * What an intent signature says of its command: SHA-256 over the command's record name and its Avro binary
 * encoding, base64url. The name is part of it because two commands can encode alike (DeleteNode and ValidateNode
 * are both empty). Sender and conductor encode with the command's schema in this jar, so both must run the same
 * release of the command's record; a sender on another one is refused, never misread.
 */
public final class CommandDigest {

    private CommandDigest() {
    }

    /** The digest of {@code command}, one of NodeIntent's command records. */
    public static String of(Object command) {
        if (!(command instanceof SpecificRecord record)) {
            throw new IllegalArgumentException("not an intent command: " + (command == null ? "null" : command.getClass().getName()));
        }
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(record.getSchema().getFullName().getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) 0);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
            new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
            return Base64.getUrlEncoder().withoutPadding().encodeToString(sha256.digest(bytes.toByteArray()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
