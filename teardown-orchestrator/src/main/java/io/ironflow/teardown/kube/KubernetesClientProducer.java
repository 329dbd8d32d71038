package io.ironflow.teardown.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one Kubernetes client of the service, for the API server at {@code ironflow.teardown.kubernetes.url}
 * (the local stand-in on 6443 by default). The client's own retries are off: every step has its own deadline and
 * retry rule (a drain retries a 429 every 5 s), and a hidden backoff would stretch them.
 */
@ApplicationScoped
public class KubernetesClientProducer {

    @Produces
    @Singleton
    KubernetesClient client(@ConfigProperty(name = "ironflow.teardown.kubernetes.url") String url) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url).withRequestRetryBackoffLimit(0)
                .withRequestTimeout(30_000).withConnectionTimeout(5_000).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    void close(@Disposes KubernetesClient client) {
        client.close();
    }
}
