package io.ironflow.policy;

import java.util.Set;

/**
 * Who a request or an intent acts for, as Keystone's token describes a caller: a user, the project the token is
 * scoped to (null for a system-scoped token), the roles it holds, and whether it carries system scope.
 * Roles are implied upwards as Keystone's defaults imply them: admin holds member and reader, member holds reader.
 */
public record Principal(String user, String project, Set<String> roles, boolean systemScope) {

    /** What {@code noauth} acts as: Ironic's noauth mode lets every request do everything. */
    public static final Principal NOAUTH = new Principal("anonymous", null, Set.of("admin", "member", "reader", "service"), true);

    /** A service of Ironflow's own (the allocator, the teardown orchestrator): the service role, system scope. */
    public static Principal service(String name) {
        return new Principal(name, null, Set.of("service"), true);
    }

    public Principal {
        roles = Set.copyOf(roles);
    }

    /** The names Ironflow's own services act under ({@link #service}). */
    public static final Set<String> SERVICES = Set.of("oneview-allocator", "teardown-orchestrator");

    /**
     * Whether this is one of Ironflow's own services as {@link #service} builds it: one of {@link #SERVICES}, the
     * service role alone, system scope, no project. Another service's token (an inspector's, say) is not.
     */
    public boolean isService() {
        return SERVICES.contains(user) && project == null && systemScope && roles.equals(Set.of("service"));
    }

    /** A role held directly or implied by a stronger one (admin implies member implies reader). */
    public boolean hasRole(String role) {
        return switch (role) {
            case "reader" -> roles.contains("reader") || roles.contains("member") || roles.contains("admin");
            case "member" -> roles.contains("member") || roles.contains("admin");
            default -> roles.contains(role);
        };
    }
}
