package io.ironflow.schemas;

import io.quarkus.logging.LoggingFilter;
import java.util.HashMap;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Every service's log handlers pass each record through {@link SecretFields#text}: the message is formatted
 * with its parameters, masked, and handed on unformatted; a thrown exception's messages (and its causes') are
 * masked too. The MDC values a line prints (%X: a node uuid or intent id that a Kafka producer chose) are cleaned as
 * well: control characters replaced, so no value starts a forged line; at most {@value #MDC_MAX} characters; secrets
 * masked. Never refuses a record. Enabled per handler with {@code quarkus.log.console.filter=ironflow-secrets}.
 */
@LoggingFilter(name = "ironflow-secrets")
public final class SecretLogFilter implements Filter {

    /** The longest MDC value printed: a uuid is 36 characters; what is longer was not put there by us. */
    public static final int MDC_MAX = 128;

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            new HashMap<>(ext.getMdcCopy()).forEach((key, value) -> { // a copy: putMdc writes the record's map
                String clean = mdcValue(value);
                if (!clean.equals(value)) {
                    ext.putMdc(key, clean);
                }
            });
        }
        String formatted = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
        String masked = SecretFields.text(formatted);
        if (masked != null && !masked.equals(formatted)) {
            if (record instanceof ExtLogRecord ext) {
                ext.setMessage(masked, ExtLogRecord.FormatStyle.NO_FORMAT);
            } else {
                record.setMessage(masked);
            }
            record.setParameters(null);
        }
        if (record.getThrown() != null && !(record.getThrown() instanceof MaskedThrowable)) {
            record.setThrown(MaskedThrowable.of(record.getThrown()));
        }
        return true;
    }

    /** {@code value} fit to print: control characters as '?', at most {@link #MDC_MAX} characters, secrets masked. */
    static String mdcValue(String value) {
        if (value == null) {
            return "";
        }
        StringBuilder clean = new StringBuilder(Math.min(value.length(), MDC_MAX));
        value.codePoints().limit(MDC_MAX).forEach(c -> clean.appendCodePoint(Character.isISOControl(c)
                || Character.getType(c) == Character.LINE_SEPARATOR || Character.getType(c) == Character.PARAGRAPH_SEPARATOR ? '?' : c));
        if (value.codePointCount(0, value.length()) > MDC_MAX) {
            clean.append("...(truncated)");
        }
        return SecretFields.text(clean.toString());
    }

    /**
     * A thrown exception as the log shows it: the original's class name, masked message and stack, and its
     * masked cause. Only made when some message in the chain holds a secret; otherwise the original is logged.
     */
    static final class MaskedThrowable extends Throwable {

        private final String className;

        private MaskedThrowable(Throwable original, Throwable cause) {
            super(SecretFields.text(original.getMessage()), cause, false, true);
            this.className = original.getClass().getName();
            setStackTrace(original.getStackTrace());
        }

        static Throwable of(Throwable thrown) {
            return holdsSecret(thrown, 0) ? copy(thrown, 0) : thrown;
        }

        private static boolean holdsSecret(Throwable t, int depth) {
            if (t == null || depth > 20) {
                return false;
            }
            String message = t.getMessage();
            return message != null && !message.equals(SecretFields.text(message)) || holdsSecret(t.getCause(), depth + 1);
        }

        private static Throwable copy(Throwable t, int depth) {
            if (t == null || depth > 20) {
                return null;
            }
            return new MaskedThrowable(t, copy(t.getCause() == t ? null : t.getCause(), depth + 1));
        }

        @Override
        public String toString() {
            String message = getLocalizedMessage();
            return message == null ? className : className + ": " + message;
        }
    }
}
