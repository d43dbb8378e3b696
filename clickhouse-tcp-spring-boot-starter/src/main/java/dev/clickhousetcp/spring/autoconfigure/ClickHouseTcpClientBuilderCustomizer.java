package dev.clickhousetcp.spring.autoconfigure;

import dev.clickhousetcp.client.ClickHouseTcpClient;

/**
 * Callback to customize the {@link ClickHouseTcpClient.Builder} of the auto-configured
 * {@link ClickHouseTcpClient} before it is built — for options the {@code clickhouse.tcp.*}
 * properties do not cover, or to compute values at startup.
 *
 * <p>Customizers run after the properties and connection details have been applied, in
 * {@link org.springframework.core.Ordered} / {@link org.springframework.core.annotation.Order} order,
 * so a later one wins. They run once, on the thread creating the client bean; the builder must not be
 * kept.
 */
@FunctionalInterface
public interface ClickHouseTcpClientBuilderCustomizer {

    /**
     * Customizes the builder.
     * @param builder the builder, already configured from the properties and connection details
     */
    void customize(ClickHouseTcpClient.Builder builder);
}
