package dev.clickhousetcp.spring.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Set;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.core.ClickHouseTcpExceptionTranslator;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration for the ClickHouse native TCP client.
 *
 * <p>Registers, each only if the application has not defined its own:
 * <ul>
 * <li>{@link ClickHouseTcpConnectionDetails} — from the {@code clickhouse.tcp.*} properties
 * ({@code url}, {@code host}, {@code port}, {@code endpoints}, {@code database}, {@code username},
 * {@code password}, {@code ssl.enabled}, {@code ssl.bundle} with Spring Boot's {@code SslBundles}); a
 * bean of that type defined elsewhere (by the application, {@code @ServiceConnection} or docker compose)
 * replaces it and those properties are ignored;</li>
 * <li>{@link ClickHouseTcpClient} — built from the connection details, the remaining
 * {@link ClickHouseTcpProperties} (timeouts, pool, compression, limits, mapping, settings, hostname
 * verification), named after its bean ({@link #CLIENT_BEAN_NAME}), and then every
 * {@link ClickHouseTcpClientBuilderCustomizer} in order (with an {@code ObservationRegistry} bean, one
 * of them makes the client observed: see {@code ClickHouseTcpObservationAutoConfiguration}); closed with the
 * context. The pool opens connections lazily, so the context starts even when the server is down. With
 * {@code clickhouse.tcp.validate-settings-on-startup} (the default) and settings configured, the
 * settings are checked against a reachable server first;</li>
 * <li>{@link ClickHouseTcpExceptionTranslator} — knows the default settings of the client beans; as a
 * {@code PersistenceExceptionTranslator} bean it also translates exceptions of {@code @Repository} beans that
 * use the client directly (with the {@code PersistenceExceptionTranslationPostProcessor} that Spring Boot's
 * persistence auto-configuration registers);</li>
 * <li>{@link ClickHouseTcpTemplate} over that client, with that translator — when there is one client bean,
 * or one marked primary (like Spring Boot's {@code JdbcTemplate}); with several clients, define a template per
 * client yourself.</li>
 * </ul>
 */
@AutoConfiguration
@ConditionalOnClass(ClickHouseTcpClient.class)
@EnableConfigurationProperties(ClickHouseTcpProperties.class)
public final class ClickHouseTcpAutoConfiguration {

    /**
     * Name of the auto-configured client bean, also the client's {@code name} (the
     * {@code clickhouse.client.name} of its observations and the {@code name} tag of its pool metrics).
     */
    public static final String CLIENT_BEAN_NAME = "clickHouseTcpClient";

    ClickHouseTcpAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(ClickHouseTcpConnectionDetails.class)
    PropertiesClickHouseTcpConnectionDetails clickHouseTcpConnectionDetails(ClickHouseTcpProperties properties,
            ObjectProvider<SslBundles> sslBundles) {
        return new PropertiesClickHouseTcpConnectionDetails(properties, sslBundles.getIfAvailable());
    }

    @Bean(name = CLIENT_BEAN_NAME, destroyMethod = "close")
    @ConditionalOnMissingBean
    ClickHouseTcpClient clickHouseTcpClient(ClickHouseTcpProperties properties,
            ClickHouseTcpConnectionDetails connectionDetails,
            ObjectProvider<ClickHouseTcpClientBuilderCustomizer> customizers, Environment environment) {
        ClickHouseTcpClientFactory factory = new ClickHouseTcpClientFactory(properties,
                ConfigurationPropertySources.get(environment));
        ClickHouseTcpClient client;
        try {
            ClickHouseTcpClient.Builder builder = factory.builder(connectionDetails).name(CLIENT_BEAN_NAME);
            customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
            client = builder.build();
        }
        catch (IllegalArgumentException ex) {
            throw new ClickHouseTcpConfigurationException("The ClickHouse client rejects its configuration: "
                    + ex.getMessage() + ". It comes from " + describe(connectionDetails)
                    + ", the clickhouse.tcp.* properties and any ClickHouseTcpClientBuilderCustomizer.",
                    "Correct the value named above.", ex);
        }
        if (properties.isValidateSettingsOnStartup()) {
            try {
                ClickHouseTcpSettingsValidator.validate(client, ClickHouseTcpClientFactory.nodes(connectionDetails),
                        factory.settings(), factory.settingSources());
            }
            catch (RuntimeException ex) {
                client.close();
                throw ex;
            }
        }
        return client;
    }

    private static String describe(ClickHouseTcpConnectionDetails connectionDetails) {
        return (connectionDetails instanceof PropertiesClickHouseTcpConnectionDetails)
                ? "the connection properties (clickhouse.tcp.url, host, port, endpoints, username, database)"
                : "the ClickHouseTcpConnectionDetails bean " + connectionDetails.getClass().getName();
    }

    /**
     * The translator knows the default settings of every client bean (with several clients, the union), so
     * it translates the exceptions of all of them, also for {@code @Repository} beans.
     */
    @Bean
    @ConditionalOnMissingBean
    ClickHouseTcpExceptionTranslator clickHouseTcpExceptionTranslator(ObjectProvider<ClickHouseTcpClient> clients) {
        Set<String> defaultSettings = new LinkedHashSet<>();
        clients.orderedStream().forEach((client) -> defaultSettings.addAll(client.config().settings().keySet()));
        return new ClickHouseTcpExceptionTranslator(defaultSettings);
    }

    /**
     * The template of the one client bean (or the primary one); none when there are several clients and none
     * is primary, as for Spring Boot's {@code JdbcTemplate}.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnSingleCandidate(ClickHouseTcpClient.class)
    ClickHouseTcpTemplate clickHouseTcpTemplate(ClickHouseTcpClient clickHouseTcpClient,
            ClickHouseTcpExceptionTranslator clickHouseTcpExceptionTranslator) {
        return new ClickHouseTcpTemplate(clickHouseTcpClient, clickHouseTcpExceptionTranslator);
    }
}
