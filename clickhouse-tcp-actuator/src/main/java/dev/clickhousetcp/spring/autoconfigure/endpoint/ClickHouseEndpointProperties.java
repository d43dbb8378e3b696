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

    public Show getShowValues() {
        return this.showValues;
    }

    public void setShowValues(Show showValues) {
        this.showValues = showValues;
    }

    public Set<String> getRoles() {
        return this.roles;
    }

}
