package io.ironflow.teardown.actions;

import java.security.SecureRandom;
import java.time.Instant;

/**
 * ULIDs, as Shipyard names its actions: 26 characters of Crockford base32, a 48-bit millisecond timestamp then 80
 * random bits, so ids sort by creation time.
 */
public final class Ulid {

    private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Ulid() {
    }

    public static String next() {
        return of(Instant.now().toEpochMilli(), RANDOM);
    }

    static String of(long millis, java.util.Random random) {
        char[] out = new char[26];
        long time = millis;
        for (int i = 9; i >= 0; i--) {
            out[i] = ALPHABET[(int) (time & 31)];
            time >>>= 5;
        }
        for (int i = 10; i < 26; i++) {
            out[i] = ALPHABET[random.nextInt(32)];
        }
        return new String(out);
    }

    public static boolean valid(String id) {
        return id != null && id.matches("[0-9A-HJKMNP-TV-Z]{26}");
    }
}
