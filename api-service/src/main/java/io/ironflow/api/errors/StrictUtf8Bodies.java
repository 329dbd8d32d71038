package io.ironflow.api.errors;

import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A request body that is not UTF-8 is a 400 and goes nowhere. The framework decodes a text body leniently, each
 * bad byte becoming U+FFFD, which was then stored in the node ({@code "caf\xE9"} became {@code "caf\uFFFD"});
 * Ironic's JSON decoding refuses such a body. Bodies are small (112 KiB at most), so reading one twice costs little.
 */
@Provider
public class StrictUtf8Bodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (context.getType() != String.class) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException e) {
            throw ApiError.badRequest("The request body is not valid UTF-8 text.");
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }
}
