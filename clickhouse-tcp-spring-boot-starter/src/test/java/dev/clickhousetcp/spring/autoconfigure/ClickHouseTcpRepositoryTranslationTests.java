package dev.clickhousetcp.spring.autoconfigure;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.core.ClickHouseBadSqlGrammarException;
import dev.clickhousetcp.spring.core.ClickHouseErrorDetails;
import dev.clickhousetcp.spring.core.ClickHouseInvalidApiUsageException;
import dev.clickhousetcp.spring.core.ClickHouseTcpExceptionTranslator;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.persistence.autoconfigure.PersistenceExceptionTranslationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PermissionDeniedDataAccessException;
import org.springframework.dao.annotation.PersistenceExceptionTranslationPostProcessor;
import org.springframework.stereotype.Repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The auto-configured {@link ClickHouseTcpExceptionTranslator} as a {@code PersistenceExceptionTranslator}: a
 * real {@code @Repository} bean that uses the client directly gets Spring's exceptions through
 * {@link PersistenceExceptionTranslationPostProcessor}, against the real ClickHouse 26.7 server.
 */
@ClickHouseTest
class ClickHouseTcpRepositoryTranslationTests {

    private static ClickHouseServer server;

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private ApplicationContextRunner runner(Class<?>... autoConfigurations) {
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(autoConfigurations))
            .withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort())
            .withBean(EventsRepository.class);
    }

    @Test
    void repositoryExceptionsAreTranslatedWithSpringBootsPostProcessor() {
        runner(ClickHouseTcpAutoConfiguration.class, PersistenceExceptionTranslationAutoConfiguration.class)
            .run((context) -> {
                assertThat(context).hasSingleBean(ClickHouseTcpExceptionTranslator.class)
                    .hasSingleBean(PersistenceExceptionTranslationPostProcessor.class);
                EventsRepository repository = context.getBean(EventsRepository.class);
                assertThat(repository.count()).isEqualTo(3);
                assertThatExceptionOfType(ClickHouseBadSqlGrammarException.class).isThrownBy(repository::broken)
                    .withCauseInstanceOf(ClickHouseServerException.class)
                    .satisfies((ex) -> assertThat(ex.getErrorCode()).isEqualTo(62))
                    .satisfies((ex) -> assertThat(ex.getErrorName()).isEqualTo("SYNTAX_ERROR"));
                // Other exceptions pass unchanged.
                assertThatExceptionOfType(IllegalStateException.class).isThrownBy(repository::notOurs);
                // The template shares the translator bean.
                assertThat(context.getBean(ClickHouseTcpTemplate.class).getExceptionTranslator())
                    .isSameAs(context.getBean(ClickHouseTcpExceptionTranslator.class));
            });
    }

    @Test
    void translatorBeanKnowsTheClientsDefaultSettings() {
        runner(ClickHouseTcpAutoConfiguration.class, PersistenceExceptionTranslationAutoConfiguration.class)
            .withPropertyValues("clickhouse.tcp.settings.no_such_setting_xyz=1",
                    "clickhouse.tcp.validate-settings-on-startup=false")
            .run((context) -> assertThatExceptionOfType(ClickHouseInvalidApiUsageException.class)
                .isThrownBy(() -> context.getBean(EventsRepository.class).count())
                .withMessageContaining("which comes from the client's default settings"));
    }

    @Test
    void repositoryExceptionsAreTranslatedWithAPostProcessorOfTheApplication() {
        runner(ClickHouseTcpAutoConfiguration.class).withUserConfiguration(PostProcessorConfiguration.class)
            .run((context) -> assertThatExceptionOfType(DataAccessException.class)
                .isThrownBy(context.getBean(EventsRepository.class)::broken)
                .isInstanceOf(ClickHouseErrorDetails.class));
    }

    @Test
    void withoutAPostProcessorTheClientsExceptionsReachTheCaller() {
        runner(ClickHouseTcpAutoConfiguration.class, PersistenceExceptionTranslationAutoConfiguration.class)
            .withPropertyValues("spring.persistence.exceptiontranslation.enabled=false")
            .run((context) -> assertThatExceptionOfType(ClickHouseServerException.class)
                .isThrownBy(context.getBean(EventsRepository.class)::broken));
    }

    @Test
    void userDefinedTranslatorReplacesTheAutoConfiguredOne() {
        runner(ClickHouseTcpAutoConfiguration.class, PersistenceExceptionTranslationAutoConfiguration.class)
            .withUserConfiguration(TranslatorConfiguration.class)
            .run((context) -> {
                assertThat(context).hasSingleBean(ClickHouseTcpExceptionTranslator.class);
                assertThat(context.getBean(ClickHouseTcpExceptionTranslator.class))
                    .isInstanceOf(StrictTranslator.class);
                assertThat(context.getBean(ClickHouseTcpTemplate.class).getExceptionTranslator())
                    .isInstanceOf(StrictTranslator.class);
                assertThatExceptionOfType(PermissionDeniedDataAccessException.class)
                    .isThrownBy(context.getBean(EventsRepository.class)::broken);
            });
    }

    /** A repository that uses the client directly, without the template. */
    @Repository
    static class EventsRepository {

        private final ClickHouseTcpClient client;

        EventsRepository(ClickHouseTcpClient client) {
            this.client = client;
        }

        long count() {
            return this.client.query("SELECT count() FROM numbers(3)", Long.class).get(0);
        }

        void broken() {
            this.client.execute("SELEKT 1");
        }

        void notOurs() {
            throw new IllegalStateException("not a ClickHouse exception");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PostProcessorConfiguration {

        @Bean
        static PersistenceExceptionTranslationPostProcessor persistenceExceptionTranslationPostProcessor() {
            return new PersistenceExceptionTranslationPostProcessor();
        }
    }

    /** Translates every server error to permission denied, to be told apart. */
    static class StrictTranslator extends ClickHouseTcpExceptionTranslator {

        @Override
        public DataAccessException translate(String task, String sql, String queryId,
                java.util.Collection<String> callSettings, ClickHouseException ex) {
            return new PermissionDeniedDataAccessException("strict: " + ex.getMessage(), ex);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TranslatorConfiguration {

        @Bean
        ClickHouseTcpExceptionTranslator strictTranslator() {
            return new StrictTranslator();
        }
    }
}
