package io.ironflow.api;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Publishes the API's request timings as a histogram, so Prometheus can compute latency percentiles per route. */
public class HttpMetrics {

    @Produces
    @Singleton
    MeterFilter httpServerHistogram() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().equals("http.server.requests")) {
                    return config;
                }
                return DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config);
            }
        };
    }
}
