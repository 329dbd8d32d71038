package io.ironflow.deploy.infra;

import org.apache.kafka.common.acl.AclOperation;

/**
 * A schema-registry user's role, as Apicurio 2.4's role-based authorization names it: a principal that only reads
 * Kafka (the dashboard, external readers) only looks schemas up; one that writes records (the services, external
 * intent producers) registers their schemas, as its serializer does; only the launcher's admin changes the global
 * rules and the registry's configuration. Every Kafka principal is a registry user (same name, same password,
 * {@link KafkaSecurity}), and this is what it may do there.
 */
public enum RegistryRole {
    READ_ONLY("sr-readonly"),
    DEVELOPER("sr-developer"),
    ADMIN("sr-admin");

    private final String role;

    RegistryRole(String role) {
        this.role = role;
    }

    /** The role's name in the registry's configuration (Apicurio's {@code registry.auth.roles.*} defaults). */
    public String roleName() {
        return role;
    }

    /** The role of {@code principal}'s registry user: a developer if it may write any topic, read-only otherwise. */
    public static RegistryRole of(KafkaAccess principal) {
        boolean writes = principal.acls().stream().anyMatch(acl -> acl.entry().operation() == AclOperation.WRITE);
        return writes ? DEVELOPER : READ_ONLY;
    }
}
