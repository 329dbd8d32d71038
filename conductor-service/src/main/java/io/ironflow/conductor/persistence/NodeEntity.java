package io.ironflow.conductor.persistence;

import io.ironflow.conductor.domain.NewNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.smallrye.mutiny.Uni;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.Mutability;
import org.hibernate.type.SqlTypes;

/**
 * One row of the node table; Flyway's V1 migration defines the columns. Its JSON columns are snapshotted for dirty
 * checking by {@link JsonMapSnapshot}, not by a JSON round trip. (Hibernate keeps one Java type for every map
 * held as JSON, so one column's plan would serve them all; each column says so itself.)
 */
@Entity
@Table(name = "nodes")
public class NodeEntity extends PanacheEntityBase {

    @Id
    public UUID uuid;
    public String name;
    public String driver;
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    @Column(name = "driver_info")
    public Map<String, Object> driverInfo = new HashMap<>();
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    public Map<String, Object> properties = new HashMap<>();
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    public Map<String, Object> extra = new HashMap<>();
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    @Column(name = "instance_info")
    public Map<String, Object> instanceInfo = new HashMap<>();
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    @Column(name = "driver_internal_info")
    public Map<String, Object> driverInternalInfo = new HashMap<>();
    @Column(name = "instance_uuid")
    public UUID instanceUuid;
    @Column(name = "resource_class")
    public String resourceClass;
    public String owner;
    public String lessee;
    public String description;
    @Column(name = "automated_clean")
    public Boolean automatedClean;
    @Column(name = "conductor_group")
    public String conductorGroup = "";
    @Column(name = "provision_state")
    public String provisionState;
    @Column(name = "target_provision_state")
    public String targetProvisionState;
    @Column(name = "power_state")
    public String powerState;
    @Column(name = "target_power_state")
    public String targetPowerState;
    public boolean maintenance;
    @Column(name = "maintenance_reason")
    public String maintenanceReason;
    /** Ironic's fault: set with maintenance by the conductor itself, cleared with it. */
    public String fault;
    public boolean retired;
    @Column(name = "retired_reason")
    public String retiredReason;
    @Column(name = "last_error")
    public String lastError;
    public String reservation;
    public String conductor;
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    @Column(name = "clean_step")
    public Map<String, Object> cleanStep;
    public long revision;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "updated_at")
    public Instant updatedAt;
    @Column(name = "provision_updated_at")
    public Instant provisionUpdatedAt;
    /** Sorted trait names (V20: text[]). */
    public String[] traits = new String[0];
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    @Column(name = "network_data")
    public Map<String, Object> networkData = new HashMap<>();
    @Column(name = "boot_mode")
    public String bootMode;
    @Column(name = "secure_boot")
    public Boolean secureBoot;
    public String shard;
    /** The node's ports by uuid, as the ports table holds them (V22): the snapshot's copy. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    public Map<String, Object> ports = new HashMap<>();
    /** The node's portgroups by uuid, as the portgroups table holds them (V27): the snapshot's copy. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Mutability(JsonMapSnapshot.class)
    public Map<String, Object> portgroups = new HashMap<>();
    /** The size of the node's last published snapshot (V32), null before its first change since V32. */
    @Column(name = "snapshot_bytes")
    public Integer snapshotBytes;

    public static NodeEntity enroll(NewNode node, String conductor, Instant now) {
        NodeEntity entity = new NodeEntity();
        entity.uuid = node.uuid();
        entity.name = node.name();
        entity.driver = node.driver();
        entity.driverInfo = new HashMap<>(node.driverInfo());
        entity.properties = new HashMap<>(node.properties());
        entity.extra = new HashMap<>(node.extra());
        entity.instanceInfo = new HashMap<>(node.instanceInfo());
        entity.resourceClass = node.resourceClass();
        entity.owner = node.owner();
        entity.lessee = node.lessee();
        entity.description = node.description();
        entity.automatedClean = node.automatedClean();
        entity.conductorGroup = node.conductorGroup();
        entity.networkData = new HashMap<>(node.networkData());
        entity.shard = node.shard();
        entity.provisionState = NewNode.INITIAL_STATE.wire();
        entity.conductor = conductor;
        entity.revision = 1;
        entity.createdAt = now;
        entity.provisionUpdatedAt = now;
        return entity;
    }

    /**
     * Whether a node other than {@code except} names {@code serverHardwareUri} in its driver_info (the unique index
     * of V34 keeps it so).
     */
    public static Uni<Boolean> hardwareTaken(String serverHardwareUri, UUID except) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "SELECT 1 FROM nodes WHERE driver_info ->> 'server_hardware_uri' = ?1 AND uuid <> ?2")
                .setParameter(1, serverHardwareUri).setParameter(2, except).getResultList())
                .map(rows -> !rows.isEmpty());
    }

    public static Uni<Boolean> nameTaken(String name) {
        return name == null ? Uni.createFrom().item(false) : count("name", name).map(n -> n > 0);
    }
}
