package io.ironflow.conductor.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A conductor and its last heartbeat; Flyway's V2 migration defines the table. */
@Entity
@Table(name = "conductors")
public class ConductorEntity extends PanacheEntityBase {

    @Id
    public String hostname;
    @Column(name = "started_at")
    public Instant startedAt;
    @Column(name = "heartbeat_at")
    public Instant heartbeatAt;
}
