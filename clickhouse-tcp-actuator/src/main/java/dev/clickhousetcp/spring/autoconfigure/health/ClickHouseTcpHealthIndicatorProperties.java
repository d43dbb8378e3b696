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
     * Maximum time for the health check's ping; checks of single endpoints (with several endpoints)
     * also cap their connect and handshake timeouts at it.
     */
    private Duration timeout = Duration.ofSeconds(5);

    /**
     * The maximum time for the health check's ping ({@code management.health.clickhousetcp.timeout}).
     *
     * @return the timeout, 5 seconds by default
     */
    public Duration getTimeout() {
        return this.timeout;
    }

    /**
     * Sets the maximum time for the health check's ping; with several endpoints, the checks of single
     * endpoints also cap their connect and handshake timeouts at it.
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
