package io.ironflow.auth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * While noauth, what keeps a web page the operator visits from using the port: a request must name a loopback
 * {@code Host} (localhost, 127.x, [::1], with or without a port), so a page whose own name was rebound to
 * 127.0.0.1 (DNS rebinding) is refused; and a request a browser marks with an {@code Origin} must come from a
 * loopback origin, so another site's form or fetch (a simple POST needs no preflight) is refused. Command-line
 * clients send neither a foreign Host nor an Origin.
 */
final class LoopbackHosts {

    private LoopbackHosts() {
    }

    /** Why a noauth request with these headers is refused, or null. */
    static String refusal(String host, String origin) {
        if (host != null && !loopbackAuthority(host)) {
            return "Host " + host + " is not a loopback name; without authentication only localhost, 127.0.0.1 or [::1] is answered";
        }
        if (origin != null && !loopbackOrigin(origin)) {
            return "requests from the web origin " + origin + " are refused without authentication";
        }
        return null;
    }

    /** {@code host[:port]} naming this machine's loopback: localhost, a 127.x or ::1 literal. */
    static boolean loopbackAuthority(String authority) {
        String host = authority.trim().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            if (close < 0 || !(close == host.length() - 1 || port(host.substring(close + 1)))) {
                return false;
            }
            host = host.substring(1, close);
        } else {
            int colon = host.indexOf(':');
            if (colon >= 0) {
                if (!port(host.substring(colon))) {
                    return false;
                }
                host = host.substring(0, colon);
            }
            if (host.contains(":")) {
                return false;
            }
        }
        return !host.isEmpty() && AuthStrategy.loopback(host);
    }

    private static boolean port(String text) {
        return text.matches(":[0-9]{1,5}");
    }

    private static boolean loopbackOrigin(String origin) {
        try {
            URI uri = new URI(origin.trim());
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getRawAuthority() != null
                    && loopbackAuthority(uri.getRawAuthority());
        } catch (URISyntaxException e) {
            return false; // "null" (a sandboxed page or a file) among others
        }
    }
}
