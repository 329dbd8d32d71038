package io.ironflow.api.errors;

/**
 * Text that came with a request, judged before it goes anywhere: PostgreSQL's text and jsonb cannot hold a NUL
 * character, and an unpaired UTF-16 surrogate has no UTF-8 encoding, so either is refused with a 400 rather than
 * failing later in a query or in the conductor. Echoes of request text in error messages are shortened.
 */
public final class RequestText {

    /** How much of a value an error message repeats. */
    private static final int EXCERPT = 120;

    private RequestText() {
    }

    /** Why {@code text} cannot be taken ("contains a NUL character"), or null when it can. */
    public static String problem(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0') {
                return "contains a NUL character";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "contains an unpaired surrogate";
            }
            if (Character.isLowSurrogate(c)) {
                return "contains an unpaired surrogate";
            }
        }
        return null;
    }

    /** {@code text} for an error message: at most {@value #EXCERPT} characters, control characters shown as {@code ?}. */
    public static String excerpt(String text) {
        if (text == null) {
            return "None";
        }
        String shown = text.length() > EXCERPT ? text.substring(0, EXCERPT) : text;
        StringBuilder out = new StringBuilder(shown.length() + 3);
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            out.append(c < 0x20 || c == 0x7f || Character.isSurrogate(c) ? '?' : c);
        }
        if (shown.length() < text.length()) {
            out.append("...");
        }
        return out.toString();
    }
}
