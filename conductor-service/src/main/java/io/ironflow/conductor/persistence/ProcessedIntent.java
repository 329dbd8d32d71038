package io.ironflow.conductor.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** An intent the conductor has answered, recorded in the transaction of its effects. */
@Entity
@Table(name = "processed_intents")
public class ProcessedIntent extends PanacheEntityBase {

    @Id
    @Column(name = "intent_id")
    public String intentId;
    @Column(name = "node_uuid")
    public UUID nodeUuid;
    public boolean accepted;
    public int code;
    @Column(name = "error_message")
    public String errorMessage;
    @Column(name = "processed_at")
    public Instant processedAt;
}
