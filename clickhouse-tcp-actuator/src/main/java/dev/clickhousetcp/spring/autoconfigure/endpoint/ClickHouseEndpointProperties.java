package dev.clickhousetcp.spring.autoconfigure.endpoint;

import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code clickhouse} actuator endpoint, bound from
 * {@code management.endpoint.clickhouse.*}.
 */
@ConfigurationProperties("management.endpoint.clickhouse")
public class ClickHouseEndpointProperties {

    /**
     * When to show unsanitized user names, databases, client names, setting values and TLS server names
     * (the password is never shown).
     */
    private Show showValues = Show.NEVER;

    /**
     * Roles used to determine whether a user is authorized to be shown unsanitized values. When empty, all
     * authenticated users are authorized.
     */
    private final Set<String> roles = new LinkedHashSet<>();

    /**
     * When the endpoint shows unsanitized values ({@code management.endpoint.clickhouse.show-values}).
     *
     * @return {@link Show#NEVER} (the default), {@link Show#WHEN_AUTHORIZED} or {@link Show#ALWAYS}
     */
    public Show getShowValues() {
        return this.showValues;
    }

    /**
     * Sets when to show unsanitized user names, databases, client names, setting values and TLS server names;
     * the password is never shown.
     *
     * @param showValues {@link Show#NEVER} to always sanitize, {@link Show#WHEN_AUTHORIZED} to show them over
     *                   HTTP to authenticated users holding one of {@link #getRoles()} (and over JMX),
     *                   {@link Show#ALWAYS} to show them to everyone who can read the endpoint
     */
    public void setShowValues(Show showValues) {
        this.showValues = showValues;
    }

    /**
     * The roles allowed to see unsanitized values with {@link Show#WHEN_AUTHORIZED}
     * ({@code management.endpoint.clickhouse.roles}).
     *
     * @return the mutable set bound from the properties; empty means every authenticated user
     */
    public Set<String> getRoles() {
        return this.roles;
    }

}
