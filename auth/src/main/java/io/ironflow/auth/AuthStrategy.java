package io.ironflow.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * How callers prove who they are ({@code ironflow.auth.strategy}), as Ironic's {@code auth_strategy}: nobody
 * ({@code noauth}, every request acts as an admin, so only on loopback), an htpasswd file ({@code http_basic}),
 * or signed bearer tokens ({@code jwt}).
 */
public enum AuthStrategy {
    noauth, http_basic, jwt;

    /**
     * Why this strategy may not serve on {@code hosts}, or null: noauth is refused unless every listener is bound
     * to a loopback address, so an unauthenticated API is never reachable from another machine.
     */
    public String refusal(List<String> hosts) {
        if (this != noauth) {
            return null;
        }
        for (String host : hosts) {
            if (!loopback(host)) {
                return "ironflow.auth.strategy=noauth is refused: the HTTP listener is bound to " + host
                        + ", not loopback; set ironflow.auth.strategy=http_basic or jwt, or bind to 127.0.0.1";
            }
        }
        return null;
    }

    static boolean loopback(String host) {
        if (host.equals("localhost")) {
            return true;
        }
        try {
            // Literal addresses only: a name is not resolved here, and an unresolvable one is not loopback.
            return (host.matches("[0-9.]+") || host.contains(":")) && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
