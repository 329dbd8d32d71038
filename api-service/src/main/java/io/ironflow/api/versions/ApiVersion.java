package io.ironflow.api.versions;

import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An Ironic API microversion, 1.N. The client asks with {@code OpenStack-API-Version: baremetal 1.N} (preferred)
 * or {@code X-OpenStack-Ironic-API-Version: 1.N}; {@code latest} means {@link #MAX}, no header means {@link #MIN}
 * (Ironic's rule, so pre-microversion clients keep their behaviour).
 */
public record ApiVersion(int minor) {

    public static final ApiVersion MIN = new ApiVersion(1);
    /** The newest version whose node-resource features Ironflow honours: see docs/api-compat.md. */
    public static final ApiVersion MAX = new ApiVersion(82);

    public static final String HEADER = "X-OpenStack-Ironic-API-Version";
    public static final String STANDARD_HEADER = "OpenStack-API-Version";
    public static final String MIN_HEADER = "X-OpenStack-Ironic-API-Minimum-Version";
    public static final String MAX_HEADER = "X-OpenStack-Ironic-API-Maximum-Version";

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)");
    private static final String SERVICE_TYPE = "baremetal";

    /** The version a request asks for, from its two possible headers; 406 when it is not one this API serves. */
    public static ApiVersion requested(String standardHeader, String legacyHeader) {
        String value = fromStandardHeader(standardHeader);
        if (value == null) {
            value = legacyHeader;
        }
        if (value == null || value.isBlank()) {
            return MIN;
        }
        value = value.trim();
        if (value.equalsIgnoreCase("latest")) {
            return MAX;
        }
        Matcher matcher = VERSION.matcher(value);
        if (!matcher.matches()) { // Ironic (api/controllers/base.py): 406 for what does not parse as major.minor
            throw notAcceptable("Invalid value for " + HEADER + " header: " + RequestText.excerpt(value) + ".");
        }
        // Any number of digits parses, as in Ironic; one too large for an int is simply not a served version.
        BigInteger major = new BigInteger(matcher.group(1));
        BigInteger minor = new BigInteger(matcher.group(2));
        String asked = RequestText.excerpt(major + "." + minor);
        if (!major.equals(BigInteger.ONE)) {
            throw notAcceptable("Mutually exclusive versions requested. Version " + asked
                    + " requested but not supported by this service. The supported version range is: ["
                    + MIN + ", " + MAX + "].");
        }
        if (minor.compareTo(BigInteger.valueOf(MIN.minor)) < 0 || minor.compareTo(BigInteger.valueOf(MAX.minor)) > 0) {
            throw notAcceptable("Version " + asked + " was requested but the minor version is not supported by this"
                    + " service. The supported version range is: [" + MIN + ", " + MAX + "].");
        }
        return new ApiVersion(minor.intValueExact());
    }

    /** {@code OpenStack-API-Version} may name several services: {@code compute 2.1, baremetal 1.50}. */
    private static String fromStandardHeader(String header) {
        if (header == null) {
            return null;
        }
        for (String entry : header.split(",")) {
            String[] parts = entry.trim().split("\\s+");
            if (parts.length == 2 && parts[0].equalsIgnoreCase(SERVICE_TYPE)) {
                return parts[1];
            }
        }
        return null;
    }

    public boolean atLeast(int minorVersion) {
        return minor >= minorVersion;
    }

    /** Ironic's NotAcceptable (406) for something newer than the requested version. */
    public static ApiError notAcceptable(String message) {
        return new ApiError(406, message);
    }

    @Override
    public String toString() {
        return "1." + minor;
    }
}
