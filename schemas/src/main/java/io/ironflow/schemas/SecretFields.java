package io.ironflow.schemas;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Part of the contract: password-like values of driver_info never appear in clear in an event or an API
 * response; they are shown as Ironic shows them.
 */
public final class SecretFields {

    public static final String MASK = "******";

    // Key fragments in the spirit of oslo.utils' mask_dict_password (ipmi_password, auth_token, private_key...).
    private static final Pattern SECRET_KEY = Pattern.compile(
            ".*(password|passwd|secret|token|key|credential|passphrase).*", Pattern.CASE_INSENSITIVE);

    private SecretFields() {
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> mask(Map<String, Object> dict) {
        Map<String, Object> masked = new LinkedHashMap<>();
        dict.forEach((key, value) -> {
            if (value instanceof Map<?, ?> nested) {
                masked.put(key, mask((Map<String, Object>) nested));
            } else if (value != null && SECRET_KEY.matcher(key).matches()) {
                masked.put(key, MASK);
            } else {
                masked.put(key, value);
            }
        });
        return masked;
    }
}
