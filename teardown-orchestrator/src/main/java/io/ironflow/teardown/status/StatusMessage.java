package io.ironflow.teardown.status;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One entry of an Airship status's {@code details.messageList}: at least {@code message} and {@code error};
 * {@code kind} is {@code SimpleMessage} unless said otherwise ({@code HealthMessage} for the etcd check), and
 * {@code name} names what the message is about (a pod, an etcd member, a step).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatusMessage(String message, boolean error, String kind, String name) {

    public static StatusMessage error(String name, String message) {
        return new StatusMessage(message, true, "SimpleMessage", name);
    }

    public static StatusMessage info(String name, String message) {
        return new StatusMessage(message, false, "SimpleMessage", name);
    }

    public static StatusMessage health(String name, String message, boolean error) {
        return new StatusMessage(message, error, "HealthMessage", name);
    }
}
