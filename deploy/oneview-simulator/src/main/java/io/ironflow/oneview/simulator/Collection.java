package io.ironflow.oneview.simulator;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A OneView collection page: {@code start}, {@code count} (-1 or absent: all), any number of {@code filter}
 * parameters (all must hold), answered as {@code {type, members, count, total, start, nextPageUri, prevPageUri,
 * uri}}. A filter is {@code attribute OP value} with OP {@code =}, {@code <>} / {@code !=} or {@code matches}
 * (SQL-like {@code %}); value is {@code null}, a quoted string or a bare word; the attribute may be quoted and the
 * whole filter double-quoted, as the OneView clients write it.
 */
public final class Collection {

    private static final Pattern FILTER = Pattern.compile(
            "^'?([A-Za-z0-9_.]+)'?\\s*(=|<>|!=|\\s+matches\\s+)\\s*(null|'(.*)'|([^'\\s]+))$", Pattern.CASE_INSENSITIVE);

    private Collection() {
    }

    public static JsonObject page(String type, String path, List<JsonObject> all, List<String> filters, String start,
            String count) {
        Predicate<JsonObject> keep = o -> true;
        for (String filter : filters) {
            keep = keep.and(parse(filter));
        }
        List<JsonObject> matching = all.stream().filter(keep).toList();
        int from = number("start", start, 0);
        int size = number("count", count, -1);
        if (from < 0 || size < -1) {
            throw OneViewError.badRequest("INVALID_PAGE", "start must be >= 0 and count >= -1.");
        }
        int to = size == -1 ? matching.size() : Math.min(matching.size(), from + size);
        List<JsonObject> members = from >= matching.size() ? List.of() : matching.subList(from, to);
        String query = filters.stream().map(f -> "&filter=" + URLEncoder.encode(f, StandardCharsets.UTF_8))
                .reduce("", String::concat);
        String next = size != -1 && to < matching.size() ? path + "?start=" + to + "&count=" + size + query : null;
        String prev = size != -1 && from > 0 ? path + "?start=" + Math.max(0, from - size) + "&count=" + size + query : null;
        return new JsonObject()
                .put("type", type)
                .put("uri", path + "?start=" + from + "&count=" + size + query)
                .put("category", path.substring(path.lastIndexOf('/') + 1))
                .put("members", new JsonArray(members.stream().map(Object.class::cast).toList()))
                .put("count", members.size())
                .put("total", matching.size())
                .put("start", from)
                .put("nextPageUri", next)
                .put("prevPageUri", prev);
    }

    static Predicate<JsonObject> parse(String filter) {
        String text = filter.strip();
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            text = text.substring(1, text.length() - 1).strip();
        }
        Matcher m = FILTER.matcher(text);
        if (!m.matches()) {
            throw OneViewError.badRequest("INVALID_FILTER", "The filter " + filter + " is not valid.");
        }
        String attribute = m.group(1);
        String op = m.group(2).strip().toLowerCase();
        String value = m.group(3).equalsIgnoreCase("null") ? null : m.group(4) != null ? m.group(4) : m.group(5);
        return switch (op) {
            case "=" -> o -> Objects.equals(text(o, attribute), value);
            case "<>", "!=" -> o -> !Objects.equals(text(o, attribute), value);
            default -> {
                Pattern like = Pattern.compile(Pattern.quote(value == null ? "" : value).replace("%", "\\E.*\\Q"));
                yield o -> text(o, attribute) != null && like.matcher(text(o, attribute)).matches();
            }
        };
    }

    private static String text(JsonObject o, String attribute) {
        Object value = o.getValue(attribute);
        return value == null ? null : value.toString();
    }

    private static int number(String name, String value, int absent) {
        if (value == null || value.isBlank()) {
            return absent;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw OneViewError.badRequest("INVALID_PAGE", name + " must be a number, not " + value);
        }
    }
}
