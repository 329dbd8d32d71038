package io.ironflow.schemas;

/**
 * Text that another system chose (a record's intent id, a node uuid a producer named), made safe to print in a
 * log line: control characters become {@code ?}, so no CR/LF forges a line of its own, and it is cut at 120
 * characters, so no record fills the log.
 */
public final class LogText {

    private static final int MAX = 120;

    private LogText() {
    }

    public static String of(String text) {
        if (text == null) {
            return "null";
        }
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > MAX ? clean.substring(0, MAX) + "..." : clean;
    }
}
