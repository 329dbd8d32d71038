package io.ironflow.api.auth;

/** A request without valid credentials: answered 401 with a challenge, never with a reason that helps guessing. */
final class Unauthenticated extends Exception {

    Unauthenticated(String message) {
        super(message, null, false, false);
    }
}
