package io.ironflow.api.versions;

import jakarta.enterprise.context.RequestScoped;

/** The microversion negotiated for the current request, set by {@link VersionNegotiation}. */
@RequestScoped
public class RequestedVersion {

    private ApiVersion version = ApiVersion.MIN;

    public ApiVersion get() {
        return version;
    }

    void set(ApiVersion version) {
        this.version = version;
    }
}
