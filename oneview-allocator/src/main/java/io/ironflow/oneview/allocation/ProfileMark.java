package io.ironflow.oneview.allocation;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the allocator signs the server profiles it creates, so that it recognises its own after a crash: the
 * profile's {@code description} names the node and the allocation request, e.g.
 * {@code "Applied by Ironflow to node <uuid> for request <id>"}. An allocator that dies after OneView created the
 * profile but before it answered leaves the node without {@code applied_server_profile_uri}; the redelivered
 * request (or any later one for the same node) finds a profile that by the spec's rule alone would be a OneView
 * user's, reads this mark, and adopts it instead of failing the node as "in use by OneView".
 */
public final class ProfileMark {

    private static final Pattern MARK = Pattern.compile("Applied by Ironflow to node ([0-9a-fA-F-]{36}) for request (\\S+)");

    private ProfileMark() {
    }

    /** The description of a profile created for {@code node} by {@code requestId}. */
    public static String describe(String node, String requestId) {
        return "Applied by Ironflow to node " + node + " for request " + requestId;
    }

    /** Whether a profile with this description was created by Ironflow for {@code node}. */
    public static boolean isFor(String description, String node) {
        if (description == null) {
            return false;
        }
        Matcher m = MARK.matcher(description);
        return m.find() && m.group(1).equalsIgnoreCase(node);
    }
}
