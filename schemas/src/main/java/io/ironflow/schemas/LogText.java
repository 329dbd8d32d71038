package io.ironflow.schemas;

/**
 * Text that another system chose (a record's intent id, a node uuid a producer named), made safe to print in a
 * log line or a dead letter's reason, exactly as the log filter prints MDC values ({@link SecretLogFilter}):
 * control characters become {@code ?}, so no CR/LF forges a line of its own; it is cut at
 * {@value SecretLogFilter#MDC_MAX} characters; secrets are masked.
 */
public final class LogText {

    private LogText() {
    }

    public static String of(String text) {
        return text == null ? "null" : SecretLogFilter.mdcValue(text);
    }
}
