package io.ironflow.deploy.stack;

import java.util.function.Predicate;
import org.hamcrest.CustomTypeSafeMatcher;
import org.hamcrest.Matcher;

/** A Hamcrest matcher made of a predicate: an Awaitility wait on it that times out says what it saw last. */
final class Matching {

    private Matching() {
    }

    static <T> Matcher<T> matching(String description, Predicate<T> predicate) {
        return new CustomTypeSafeMatcher<>(description) {
            @Override
            protected boolean matchesSafely(T item) {
                return predicate.test(item);
            }
        };
    }
}
