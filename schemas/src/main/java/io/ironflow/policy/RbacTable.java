package io.ironflow.policy;

/**
 * Renders a {@link Policy} as the Markdown of docs/rbac.md: each rule's check string, and who passes it among
 * the {@link Persona}s for a node owned by one project and leased to another.
 */
public final class RbacTable {

    private RbacTable() {
    }

    public static String markdown(Policy policy) {
        StringBuilder md = new StringBuilder();
        md.append("# Who may do what (RBAC)\n\n")
                .append("Generated from `schemas/src/main/java/io/ironflow/policy/PolicyDefaults.java` by `RbacTableTest`; ")
                .append("do not edit by hand. These are Ironic's secure-RBAC defaults; a policy file ")
                .append("(`ironflow.policy.file`, oslo.policy YAML) overrides any rule by name.\n\n")
                .append("Columns: the caller's scope and role. *owner*/*lessee*: a project-scoped token whose project is ")
                .append("the node's `owner`/`lessee`; *other*: any other project. Admin implies member, member implies reader. ")
                .append("`yes` allowed; `-` refused: 404 when the caller may not see the node (`baremetal:node:get`), else 403.\n\n")
                .append("| rule | ");
        for (Persona p : Persona.values()) {
            md.append(p.heading()).append(" | ");
        }
        md.append("\n|---|");
        md.append("---|".repeat(Persona.values().length)).append('\n');
        int cells = 0;
        for (PolicyDefaults.Rule rule : PolicyDefaults.RULES) {
            md.append("| `").append(rule.name()).append("` | ");
            for (Persona p : Persona.values()) {
                md.append(policy.allows(rule.name(), p.principal(), Persona.NODE) ? "yes" : "-").append(" | ");
                cells++;
            }
            md.append('\n');
        }
        md.append("\n").append(PolicyDefaults.RULES.size()).append(" rules x ").append(Persona.values().length)
                .append(" callers = ").append(cells).append(" cells.\n\n## Rules\n\n| rule | guards | default check string |\n|---|---|---|\n");
        for (PolicyDefaults.Rule rule : PolicyDefaults.RULES) {
            md.append("| `").append(rule.name()).append("` | ").append(rule.description()).append(" | `")
                    .append(rule.check()).append("` |\n");
        }
        return md.toString();
    }
}
