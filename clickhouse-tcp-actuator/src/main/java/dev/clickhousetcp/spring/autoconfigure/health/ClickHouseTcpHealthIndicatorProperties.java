package dev.clickhousetcp.spring.autoconfigure.health;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration properties of the ClickHouse native TCP client's health indicator, bound from
 * {@code management.health.clickhousetcp.*}. Validates itself when bound.
 */
@ConfigurationProperties("management.health.clickhousetcp")
public class ClickHouseTcpHealthIndicatorProperties implements Validator {

    /**
     * Maximum time for the whole health check: opening a connection (when no pooled one is idle), the
     * handshake and the ping, whatever the client's own timeouts; also for each endpoint's check with
     * several endpoints. A check that does not end in time reports DOWN.
     */
    private Duration timeout = Duration.ofSeconds(1);

    /**
     * The maximum time for the whole health check ({@code management.health.clickhousetcp.timeout}).
     *
     * @return the timeout, 1 second by default
     */
    public Duration getTimeout() {
        return this.timeout;
    }

    /**
     * Sets the maximum time for the whole health check (opening a connection when no pooled one is idle,
     * the handshake and the ping); with several endpoints, also for each endpoint's check.
     *
     * @param timeout a positive duration
     */
    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public boolean supports(Class<?> clazz) {
        return ClickHouseTcpHealthIndicatorProperties.class.isAssignableFrom(clazz);
    }

    @Override
    public void validate(Object target, Errors errors) {
        Duration value = ((ClickHouseTcpHealthIndicatorProperties) target).timeout;
        if (value == null || value.isNegative() || value.isZero()) {
            errors.rejectValue("timeout", "positive", "must be a positive duration");
        }
    }

}
