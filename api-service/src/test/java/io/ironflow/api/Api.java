package io.ironflow.api;

import static io.restassured.RestAssured.given;

import io.restassured.specification.RequestSpecification;

/** Requests as today's clients send them: asking for the newest microversion, as the CLI's "latest" does. */
final class Api {

    static final String VERSION_HEADER = "X-OpenStack-Ironic-API-Version";

    private Api() {
    }

    static RequestSpecification latest() {
        return given().header(VERSION_HEADER, "latest");
    }
}
