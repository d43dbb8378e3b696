package dev.clickhousetcp.spring.actuate.endpoint;

import java.util.Objects;
import java.util.Set;

import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.ClickHouseClientDescriptor;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.ClickHouseClientsDescriptor;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * Web extension of {@link ClickHouseEndpoint}: decides from the request's {@link SecurityContext} whether
 * sanitizable values are shown ({@link Show#WHEN_AUTHORIZED}: an authenticated user, in one of the roles
 * when roles are given), and answers 404 for an unknown client name. Thread-safe.
 */
@EndpointWebExtension(endpoint = ClickHouseEndpoint.class)
public class ClickHouseEndpointWebExtension {

    private final ClickHouseEndpoint delegate;

    private final Show showValues;

    private final Set<String> roles;

    /**
     * Creates an extension.
     * @param delegate the endpoint
     * @param showValues when to show sanitizable values
     * @param roles the roles that may see them with {@link Show#WHEN_AUTHORIZED}; empty: every
     * authenticated user
     */
    public ClickHouseEndpointWebExtension(ClickHouseEndpoint delegate, Show showValues, Set<String> roles) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.showValues = Objects.requireNonNull(showValues, "showValues");
        this.roles = Set.copyOf(roles);
    }

    /**
     * Describes every client.
     * @param securityContext the request's security context
     * @return the clients by bean name
     */
    @ReadOperation
    public ClickHouseClientsDescriptor clickhouse(SecurityContext securityContext) {
        return this.delegate.clickhouse(this.showValues.isShown(securityContext, this.roles));
    }

    /**
     * Describes one client.
     * @param securityContext the request's security context
     * @param name the client's bean name
     * @return the client, or status 404 when there is no client of that name
     */
    @ReadOperation
    public WebEndpointResponse<ClickHouseClientDescriptor> clickhouseClient(SecurityContext securityContext,
            @Selector String name) {
        ClickHouseClientDescriptor descriptor = this.delegate.clickhouseClient(name,
                this.showValues.isShown(securityContext, this.roles));
        return (descriptor != null) ? new WebEndpointResponse<>(descriptor)
                : new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
    }

}
