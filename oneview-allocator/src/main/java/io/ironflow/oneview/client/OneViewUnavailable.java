package io.ironflow.oneview.client;

/** OneView did not answer, timed out or answered 5xx: a failure that may pass, retried with backoff a bounded number of times. */
public class OneViewUnavailable extends RuntimeException {

    public OneViewUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
