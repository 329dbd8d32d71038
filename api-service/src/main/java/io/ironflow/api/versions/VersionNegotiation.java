package io.ironflow.api.versions;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Ironic's microversion handshake on every request: the requested version is parsed before anything else (406
 * when it is not served), and every response, errors included, names the served range and the version used.
 * This is also where authentication will plug in: the CLI sends {@code X-Auth-Token} (`notused` without
 * auth), accepted and ignored until then.
 */
public class VersionNegotiation {

    private static final String NEGOTIATED = VersionNegotiation.class.getName();

    private final RequestedVersion requested;

    VersionNegotiation(RequestedVersion requested) {
        this.requested = requested;
    }

    @ServerRequestFilter(preMatching = true)
    public void negotiate(ContainerRequestContext request) {
        ApiVersion version = ApiVersion.requested(request.getHeaderString(ApiVersion.STANDARD_HEADER),
                request.getHeaderString(ApiVersion.HEADER));
        requested.set(version);
        request.setProperty(NEGOTIATED, version);
    }

    @ServerResponseFilter
    public void announce(ContainerRequestContext request, ContainerResponseContext response) {
        MultivaluedMap<String, Object> headers = response.getHeaders();
        headers.putSingle(ApiVersion.MIN_HEADER, ApiVersion.MIN.toString());
        headers.putSingle(ApiVersion.MAX_HEADER, ApiVersion.MAX.toString());
        if (request.getProperty(NEGOTIATED) instanceof ApiVersion version) {
            headers.putSingle(ApiVersion.HEADER, version.toString());
            headers.putSingle(ApiVersion.STANDARD_HEADER, "baremetal " + version);
        }
    }
}
