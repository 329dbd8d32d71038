package io.ironflow.policy;

import java.util.Set;

/**
 * The callers the RBAC matrix is drawn for (docs/rbac.md, and the API's matrix test): each role with system
 * scope, and each role scoped to the node's owner project, to its lessee project, or to an unrelated project.
 */
public enum Persona {
    SYSTEM_ADMIN("admin", Relation.SYSTEM),
    SYSTEM_MEMBER("member", Relation.SYSTEM),
    SYSTEM_READER("reader", Relation.SYSTEM),
    SYSTEM_SERVICE("service", Relation.SYSTEM),
    OWNER_ADMIN("admin", Relation.OWNER),
    OWNER_MEMBER("member", Relation.OWNER),
    OWNER_READER("reader", Relation.OWNER),
    OWNER_SERVICE("service", Relation.OWNER),
    LESSEE_ADMIN("admin", Relation.LESSEE),
    LESSEE_MEMBER("member", Relation.LESSEE),
    LESSEE_READER("reader", Relation.LESSEE),
    OTHER_ADMIN("admin", Relation.OTHER);

    /** How the persona's scope relates to the matrix's node. */
    public enum Relation { SYSTEM, OWNER, LESSEE, OTHER }

    /** The owner and lessee projects of the node every persona is matched against. */
    public static final String OWNER_PROJECT = "owner-project";
    public static final String LESSEE_PROJECT = "lessee-project";
    public static final String OTHER_PROJECT = "other-project";
    public static final NodeOwnership NODE = new NodeOwnership(OWNER_PROJECT, LESSEE_PROJECT);

    public final String role;
    public final Relation relation;

    Persona(String role, Relation relation) {
        this.role = role;
        this.relation = relation;
    }

    /** The project this persona is scoped to; null for system scope. */
    public String project() {
        return switch (relation) {
            case SYSTEM -> null;
            case OWNER -> OWNER_PROJECT;
            case LESSEE -> LESSEE_PROJECT;
            case OTHER -> OTHER_PROJECT;
        };
    }

    /** A user name unique to the persona, e.g. {@code owner-member}. */
    public String user() {
        return name().toLowerCase().replace('_', '-');
    }

    public Principal principal() {
        return new Principal(user(), project(), Set.of(role), relation == Relation.SYSTEM);
    }

    /** How the column is headed in docs/rbac.md. */
    public String heading() {
        return (relation == Relation.SYSTEM ? "system" : relation.name().toLowerCase()) + " " + role;
    }
}
