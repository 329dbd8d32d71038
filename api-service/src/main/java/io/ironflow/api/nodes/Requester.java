package io.ironflow.api.nodes;

/**
 * Who an intent is sent for. Authentication is not built yet: clients' X-Auth-Token is accepted and ignored,
 * and every request acts as {@link #ANONYMOUS}. This is the one place authentication will plug in.
 */
final class Requester {

    static final String ANONYMOUS = "anonymous";

    private Requester() {
    }
}
