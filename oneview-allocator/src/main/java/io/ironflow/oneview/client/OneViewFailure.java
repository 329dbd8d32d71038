package io.ironflow.oneview.client;

/**
 * OneView refused a request (4xx) or a task ended in Error: retrying would fail the same way. The message is
 * OneView's own (the ErrorMessage's or the task error's {@code message}).
 */
public class OneViewFailure extends RuntimeException {

    private final int status;
    private final String errorCode;

    public OneViewFailure(int status, String errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    public int status() {
        return status;
    }

    public String errorCode() {
        return errorCode;
    }
}
