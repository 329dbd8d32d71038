package io.ironflow.auth;

/** A login refused before bcrypt ran, too many having failed or waiting: answered 429 with Retry-After. */
public final class TooManyLogins extends Exception {

    private final long retryAfterSeconds;

    public TooManyLogins(String message, long retryAfterSeconds) {
        super(message, null, false, false);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
