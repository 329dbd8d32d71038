package io.ironflow.api;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Starts the API. One thing comes first: Quarkus answers a request target that {@code java.net.URI} cannot
 * parse (a broken percent-escape such as {@code ?q=%zz}) with a bare 400 before any handler of ours runs, unless
 * {@code vertx.disableURIValidation} is set when its HTTP recorder loads. With it set, limits/RequestGuard makes
 * the same check and answers in Ironic's error shape. (Tests set the property in the surefire configuration.)
 */
@QuarkusMain
public class ApiMain {

    public static void main(String... args) {
        System.setProperty("vertx.disableURIValidation", "true");
        Quarkus.run(args);
    }
}
