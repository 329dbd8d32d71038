package io.ironflow.conductor;

import io.ironflow.deploy.testing.AvroKafkaClientsContract;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** This service's Kafka clients read and write Avro through the caching datum provider. */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class AvroKafkaClientsTest extends AvroKafkaClientsContract {
}
