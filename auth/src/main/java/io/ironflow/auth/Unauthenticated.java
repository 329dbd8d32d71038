package io.ironflow.auth;

/** A request without valid credentials: answered 401 with a challenge, never with a reason that helps guessing. */
public final class Unauthenticated extends Exception {

    public Unauthenticated(String message) {
        super(message, null, false, false);
    }
}
