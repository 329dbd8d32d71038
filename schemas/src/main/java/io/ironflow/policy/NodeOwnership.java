package io.ironflow.policy;

/**
 * The node fields Ironic's project-scoped rules look at: {@code %(node.owner)s} and {@code %(node.lessee)s}.
 * {@link #NONE} is the target of rules that concern no existing node (create, list).
 */
public record NodeOwnership(String owner, String lessee) {

    public static final NodeOwnership NONE = new NodeOwnership(null, null);
}
