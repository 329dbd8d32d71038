package io.ironflow.conductor.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A record to publish, written in the same transaction as the change it announces.
 * {@code type} is the topic, {@code aggregateid} the Kafka key, {@code payload} the value as it goes on the topic
 * (framed by the registry's serializer), {@code transition} a node event's {@code from|event|to}.
 */
@Entity
@Table(name = "outbox")
public class OutboxEvent extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long seq;
    public UUID id;
    public String aggregatetype;
    public String aggregateid;
    public String type;
    public byte[] payload;
    public String transition;
    @Column(name = "created_at")
    public Instant createdAt;
}
