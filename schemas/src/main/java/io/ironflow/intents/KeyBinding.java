package io.ironflow.intents;

import io.ironflow.policy.Principal;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The principals one trusted key may sign for, written as members of its JWK in the conductor's trusted-keys file:
 * <ul>
 * <li>{@code ironflow_users}: the user names it may carry; {@code "*"} is any user but Ironflow's own services
 *     ({@link Principal#SERVICES}), which a key must name to speak for them;</li>
 * <li>{@code ironflow_roles}: the roles it may carry, {@code "*"} any; a principal holding a role not listed is
 *     refused;</li>
 * <li>{@code ironflow_projects}: the projects a project-scoped principal may name, {@code "*"} any;</li>
 * <li>{@code ironflow_system_scope}: whether it may carry system scope (false when absent).</li>
 * </ul>
 * A key without these members carries nobody. So an external producer's key can be held to one role in one
 * project, and the API's key, which speaks for every caller, still cannot speak for the allocator.
 */
public record KeyBinding(Set<String> users, Set<String> roles, Set<String> projects, boolean systemScope) {

    public static final String USERS = "ironflow_users";
    public static final String ROLES = "ironflow_roles";
    public static final String PROJECTS = "ironflow_projects";
    public static final String SYSTEM_SCOPE = "ironflow_system_scope";
    private static final String ANY = "*";

    public KeyBinding {
        users = Set.copyOf(users);
        roles = Set.copyOf(roles);
        projects = Set.copyOf(projects);
    }

    /** The binding written in a JWK's members. */
    static KeyBinding of(Map<String, Object> jwk) {
        return new KeyBinding(names(jwk, USERS), names(jwk, ROLES), names(jwk, PROJECTS), Boolean.TRUE.equals(jwk.get(SYSTEM_SCOPE)));
    }

    /** The members that write this binding into a JWK. */
    public Map<String, Object> members() {
        return Map.of(USERS, List.copyOf(users), ROLES, List.copyOf(roles), PROJECTS, List.copyOf(projects), SYSTEM_SCOPE, systemScope);
    }

    /** Why {@code who} is beyond this key, or null when the key may carry it. */
    String refusal(Principal who) {
        boolean userAllowed = users.contains(who.user()) || (users.contains(ANY) && !Principal.SERVICES.contains(who.user()));
        if (!userAllowed) {
            return "the key may not sign for user " + who.user();
        }
        if (!roles.contains(ANY) && !roles.containsAll(who.roles())) {
            return "the key may not carry the roles " + who.roles();
        }
        if (who.systemScope() && !systemScope) {
            return "the key may not carry system scope";
        }
        if (who.project() != null && !projects.contains(ANY) && !projects.contains(who.project())) {
            return "the key may not sign for project " + who.project();
        }
        return null;
    }

    private static Set<String> names(Map<String, Object> jwk, String member) {
        Object value = jwk.get(member);
        if (value == null) {
            return Set.of();
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw new IllegalArgumentException("the member " + member + " of key " + jwk.get("kid") + " must be a list of strings");
        }
        return Set.copyOf(list.stream().map(String.class::cast).toList());
    }
}
