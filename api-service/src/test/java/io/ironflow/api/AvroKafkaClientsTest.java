package io.ironflow.api;

import io.ironflow.deploy.testing.AvroKafkaClientsContract;
import io.quarkus.test.junit.QuarkusTest;

/** This service's Kafka clients read and write Avro through the caching datum provider. */
@QuarkusTest
class AvroKafkaClientsTest extends AvroKafkaClientsContract {
}
