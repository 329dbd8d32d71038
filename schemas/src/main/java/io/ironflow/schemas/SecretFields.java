package io.ironflow.schemas;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Part of the contract, and the one masking rule every service uses: secrets never leave a service in clear, in
 * an API answer, an event, a snapshot, a log line or an error message. They are shown as Ironic shows them,
 * {@value #MASK}:
 * <ul>
 * <li>{@link #driverInfo}: oslo.utils' {@code mask_dict_password}, as Ironic's {@code node_sanitize} applies it
 *     (any key naming a password, secret, token, key, credential or passphrase, at any depth; other strings have
 *     their {@code key=value} secrets masked as {@link #text} does);</li>
 * <li>{@link #instanceInfo}: the same, plus {@code configdrive} (in oslo's list), {@code image_url} (Ironic masks it
 *     for its temp URL) and {@code image_checksum} (Ironflow masks it too: it identifies the tenant's image);
 *     {@code rescue_password}, which Ironic keeps there, is a password key;</li>
 * <li>{@link #text}: oslo.utils' {@code mask_password} on free text ({@code last_error}, error messages, log
 *     lines): the value after {@code password=}, {@code "password": "..."}, {@code token: ...} and the like.</li>
 * </ul>
 * The node-intents records are the one place a secret travels in clear: they are how it reaches the conductor.
 */
public final class SecretFields {

    public static final String MASK = "******";

    /**
     * oslo.utils' strutils._SANITIZE_KEYS that the broader fragments below do not already cover (adminPass,
     * sys_pswd, ...); with them every key of oslo's list is masked, as a dict key and in text.
     */
    private static final String OSLO_KEYS = "adminpass|admin_pass|new_pass|sys_pswd|fernetkey|sslkey|cephclusterfsid"
            + "|octaviaheartbeatkey|rabbitcookie|cephmanilaclientkey|pacemakerremoteauthkey|designaterndckey|cephadminkey"
            + "|heatauthencryptionkey|cephclientkey|barbicansimplecryptokek|cephrgwkey|swifthashsuffix|migrationsshkey"
            + "|cephmdskey|cephmonkey";

    // Key fragments: oslo.utils' _SANITIZE_KEYS (matched anywhere in the key, as mask_dict_password does) and more.
    private static final Pattern SECRET_KEY = Pattern.compile(
            ".*(password|passwd|secret|token|key|credential|passphrase|configdrive|" + OSLO_KEYS + ").*",
            Pattern.CASE_INSENSITIVE);

    /** instance_info keys masked whatever they hold (Ironic's node_sanitize, and the image checksums). */
    private static final Set<String> INSTANCE_SECRETS = Set.of("configdrive", "image_url", "image_checksum",
            "image_os_hash_value");

    // oslo's mask_password: a secret-naming word, a separator (= or :, quoted or not), then the value: a quoted one
    // to its closing quote, spaces and all (oslo's _FORMAT_PATTERNS_2; an unclosed one to the end), an unquoted one
    // up to white space, a comma, semicolon, ampersand or closing brace/bracket. "key" alone is too common in prose
    // to count here, so only compound names ending in key (private_key, ssh_key...) and oslo's own do.
    private static final Pattern SECRET_IN_TEXT = Pattern.compile(
            "(?is)((?:[\\w.-]*(?:password|passwd|secret|token|credential|passphrase|configdrive|image_checksum|" + OSLO_KEYS
                    + ")[\\w.-]*|[\\w.-]+_key)[\"']?\\s*[=:]\\s*)(?:([\"'])(?:\\\\.|(?!\\2).)*(?:\\2|$)|[^\\s\"',;&}\\]<>]+)");

    private SecretFields() {
    }

    /** driver_info as every reader sees it: password-like values masked at any depth. */
    public static Map<String, Object> driverInfo(Map<String, Object> dict) {
        return dict == null ? null : mask(dict);
    }

    /** instance_info as every reader sees it: password-like values, config drive, image URL and checksum masked. */
    public static Map<String, Object> instanceInfo(Map<String, Object> dict) {
        if (dict == null) {
            return null;
        }
        Map<String, Object> masked = mask(dict);
        INSTANCE_SECRETS.forEach(key -> masked.computeIfPresent(key, (k, v) -> MASK));
        return masked;
    }

    /** Kept for the callers that mask a driver_info: {@link #driverInfo}. */
    public static Map<String, Object> mask(Map<String, Object> dict) {
        Map<String, Object> masked = new LinkedHashMap<>();
        dict.forEach((key, value) -> masked.put(key, maskValue(key, value)));
        return masked;
    }

    @SuppressWarnings("unchecked")
    private static Object maskValue(String key, Object value) {
        if (value instanceof Map<?, ?> nested) {
            return mask((Map<String, Object>) nested);
        }
        if (value != null && key != null && SECRET_KEY.matcher(key).matches()) {
            return MASK;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(item -> out.add(maskValue(null, item)));
            return out;
        }
        if (value instanceof String s) {
            return text(s);
        }
        return value;
    }

    /** Free text with every {@code secret-name=value} (and its JSON and YAML forms) masked; null stays null. */
    public static String text(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        Matcher m = SECRET_IN_TEXT.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        do {
            String quote = m.group(2) == null ? "" : m.group(2);
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + quote + MASK + quote));
        } while (m.find());
        m.appendTail(out);
        return out.toString();
    }
}
