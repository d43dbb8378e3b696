package dev.clickhousetcp.spring.autoconfigure;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.core.ClickHouseTcpExceptionTranslator;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the ClickHouse native TCP client.
 *
 * <p>Registers, each only if the application has not defined its own:
 * <ul>
 * <li>{@link ClickHouseTcpConnectionDetails} — {@link PropertiesClickHouseTcpConnectionDetails} from
 * {@code clickhouse.tcp.host}, {@code port}, {@code database}, {@code username}, {@code password};</li>
 * <li>{@link ClickHouseTcpClient} — built from the connection details, the remaining
 * {@link ClickHouseTcpProperties} (timeouts, pool, insert block size, settings) and then every
 * {@link ClickHouseTcpClientBuilderCustomizer} in order; closed with the context. The pool opens
 * connections lazily, so the context starts even when the server is down;</li>
 * <li>{@link ClickHouseTcpExceptionTranslator} — knows the client's default settings; as a
 * {@code PersistenceExceptionTranslator} bean it also translates exceptions of {@code @Repository} beans that
 * use the client directly (with the {@code PersistenceExceptionTranslationPostProcessor} that Spring Boot's
 * persistence auto-configuration registers);</li>
 * <li>{@link ClickHouseTcpTemplate} over that client, with that translator.</li>
 * </ul>
 */
@AutoConfiguration
@ConditionalOnClass(ClickHouseTcpClient.class)
@EnableConfigurationProperties(ClickHouseTcpProperties.class)
public final class ClickHouseTcpAutoConfiguration {

    ClickHouseTcpAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(ClickHouseTcpConnectionDetails.class)
    PropertiesClickHouseTcpConnectionDetails clickHouseTcpConnectionDetails(ClickHouseTcpProperties properties) {
        return new PropertiesClickHouseTcpConnectionDetails(properties);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ClickHouseTcpClient clickHouseTcpClient(ClickHouseTcpProperties properties,
            ClickHouseTcpConnectionDetails connectionDetails,
            ObjectProvider<ClickHouseTcpClientBuilderCustomizer> customizers) {
        ClickHouseTcpClient.Builder builder = ClickHouseTcpClient.builder()
            .host(connectionDetails.getHost())
            .port(connectionDetails.getPort())
            .database(connectionDetails.getDatabase())
            .user(connectionDetails.getUsername())
            .password(connectionDetails.getPassword())
            .connectTimeout(properties.getConnection().getConnectTimeout())
            .handshakeTimeout(properties.getConnection().getHandshakeTimeout())
            .socketTimeout(properties.getConnection().getSocketTimeout())
            .maxPoolSize(properties.getPool().getMaxSize())
            .acquireTimeout(properties.getPool().getAcquireTimeout())
            .validateAfterIdle(properties.getPool().getValidateAfterIdle())
            .minIdle(properties.getPool().getMinIdle())
            .idleTimeout(properties.getPool().getIdleTimeout())
            .maxLifetime(properties.getPool().getMaxLifetime())
            .leakDetectionThreshold(properties.getPool().getLeakDetectionThreshold())
            .compression(compression(properties.getCompression()))
            .loadBalancing(properties.getLoadBalancing())
            .insertBlockRows(properties.getInsert().getBlockRows())
            .settings(properties.getSettings());
        if (!properties.getEndpoints().isEmpty()) {
            builder.endpoints(properties.getEndpoints());
        }
        String clientName = properties.getClientName();
        if (clientName != null && !clientName.isBlank()) {
            builder.clientName(clientName);
        }
        customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
        return builder.build();
    }

    private static dev.clickhousetcp.client.Compression compression(String name) {
        String n = name == null ? "lz4" : name.trim().toLowerCase(java.util.Locale.ROOT);
        return switch (n) {
            case "lz4" -> dev.clickhousetcp.client.Compression.LZ4;
            case "zstd" -> dev.clickhousetcp.client.Compression.ZSTD;
            case "none" -> dev.clickhousetcp.client.Compression.NONE;
            default -> throw new IllegalArgumentException("clickhouse.tcp.compression must be lz4, zstd or none, not '"
                    + name + "'");
        };
    }

    @Bean
    @ConditionalOnMissingBean
    ClickHouseTcpExceptionTranslator clickHouseTcpExceptionTranslator(ClickHouseTcpClient clickHouseTcpClient) {
        return ClickHouseTcpExceptionTranslator.forClient(clickHouseTcpClient);
    }

    @Bean
    @ConditionalOnMissingBean
    ClickHouseTcpTemplate clickHouseTcpTemplate(ClickHouseTcpClient clickHouseTcpClient,
            ClickHouseTcpExceptionTranslator clickHouseTcpExceptionTranslator) {
        return new ClickHouseTcpTemplate(clickHouseTcpClient, clickHouseTcpExceptionTranslator);
    }
}
