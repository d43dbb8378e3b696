package dev.clickhousetcp.spring.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code clickhouse.tcp.settings} checked against the server at startup, the hint for an unknown
 * setting at the first query when the check is off, and the names of settings given as environment
 * variables.
 */
@ClickHouseTest
class ClickHouseTcpSettingsValidationTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private ApplicationContextRunner connected(ClickHouseServer target) {
        return this.runner.withPropertyValues("clickhouse.tcp.host=" + target.host(),
                "clickhouse.tcp.port=" + target.tcpPort());
    }

    @Test
    void knownSettingsPass() {
        connected(server)
            .withPropertyValues("clickhouse.tcp.settings.max_threads=2", "clickhouse.tcp.settings.max_execution_time=60",
                    "clickhouse.tcp.url=clickhouse://?session_timezone=UTC")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(ClickHouseTcpClient.class).config().settings())
                    .containsOnlyKeys("session_timezone", "max_threads", "max_execution_time");
            });
    }

    @Test
    void unknownSettingsFailStartupWithCloseMatches() {
        connected(server)
            .withPropertyValues("clickhouse.tcp.settings.max_thread=2", "clickhouse.tcp.settings.max_execution_time=60",
                    "clickhouse.tcp.settings.max_memory_usage_x=1000000000",
                    "clickhouse.tcp.url=clickhouse://?sesion_timezone=UTC")
            .run((context) -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = ClickHouseTcpPropertiesTests.analyze(context.getStartupFailure());
                assertThat(analysis.getDescription())
                    .contains("clickhouse.tcp.settings.max_thread: unknown setting 'max_thread' (did you mean 'max_threads'")
                    .contains("clickhouse.tcp.settings.max_memory_usage_x: unknown setting 'max_memory_usage_x' "
                            + "(did you mean 'max_memory_usage'")
                    .contains("clickhouse.tcp.url (query parameter sesion_timezone): unknown setting 'sesion_timezone' "
                            + "(did you mean 'session_timezone'")
                    .doesNotContain("max_execution_time");
                assertThat(analysis.getAction()).contains("validate-settings-on-startup=false");
            });
    }

    @Test
    void rejectedValuesFailStartupWithTheServersReason() {
        connected(server).withPropertyValues("clickhouse.tcp.settings.max_threads=many").run((context) -> {
            assertThat(context).hasFailed();
            String description = ClickHouseTcpPropertiesTests.analyze(context.getStartupFailure()).getDescription();
            assertThat(description).contains("clickhouse.tcp.settings.max_threads: the server rejects max_threads=many");
        });
    }

    /** The 2018 server reports unknown settings in its own words and may drop the connection after each. */
    @Test
    void unknownSettingsOnTheLegacyServer(@LegacyServer ClickHouseServer legacy) {
        connected(legacy)
            .withPropertyValues("clickhouse.tcp.settings.max_thread=2", "clickhouse.tcp.settings.max_block_sise=10",
                    "clickhouse.tcp.settings.max_threads=2")
            .run((context) -> {
                assertThat(context).hasFailed();
                String description = ClickHouseTcpPropertiesTests.analyze(context.getStartupFailure()).getDescription();
                assertThat(description).contains("unknown setting 'max_thread' (did you mean 'max_threads'")
                    .contains("unknown setting 'max_block_sise' (did you mean 'max_block_size'")
                    .doesNotContain("settings.max_threads:");
            });
    }

    @Test
    void checkCanBeTurnedOffAndTheFirstQueryGetsAHint() {
        connected(server)
            .withPropertyValues("clickhouse.tcp.settings.max_thread=2", "clickhouse.tcp.validate-settings-on-startup=false")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                Throwable failure = catchThrowable(() -> client.execute("SELECT 1"));
                assertThat(failure).isInstanceOf(ClickHouseServerException.class);
                assertThat(((ClickHouseServerException) failure).code()).isEqualTo(115);
                // through the template (and the translator bean), the first query names the setting and its origin
                Throwable translated = catchThrowable(
                        () -> context.getBean(dev.clickhousetcp.spring.core.ClickHouseTcpTemplate.class).execute("SELECT 1"));
                assertThat(translated).isInstanceOf(org.springframework.dao.InvalidDataAccessApiUsageException.class)
                    .hasMessageContaining("max_thread")
                    .hasMessageContaining("clickhouse.tcp.settings");
            });
    }

    @Test
    void unreachableServerSkipsTheCheck() {
        this.runner.withPropertyValues("clickhouse.tcp.host=127.0.0.1", "clickhouse.tcp.port=1",
                "clickhouse.tcp.settings.max_thread=2").run((context) -> assertThat(context).hasNotFailed());
    }

    @Test
    void closeMatchesAreByEditDistance() {
        Set<String> known = Set.of("max_threads", "max_thread_pool_size", "max_memory_usage", "readonly");
        assertThat(ClickHouseTcpSettingsValidator.closeMatches("max_thread", known)).startsWith("max_threads");
        assertThat(ClickHouseTcpSettingsValidator.closeMatches("MAX_THREADS", known)).containsExactly("max_threads");
        assertThat(ClickHouseTcpSettingsValidator.closeMatches("completely_else", known)).isEmpty();
        assertThat(ClickHouseTcpSettingsValidator.distance("kitten", "sitting")).isEqualTo(3);
    }

    // clickhouse.tcp.settings from environment variables (CLICKHOUSE_TCP_SETTINGS_MAX_THREADS=3): relaxed binding
    // splits the variable's name at each underscore; the setting's name joins those parts with underscores again,
    // as ClickHouse names never hold a dot; keys in brackets are kept as written.

    /** The context with {@code variables} as its system environment (as the operating system would give them). */
    private ApplicationContextRunner environment(Map<String, Object> variables) {
        Map<String, Object> all = new LinkedHashMap<>(variables);
        all.put("CLICKHOUSE_TCP_HOST", server.host());
        all.put("CLICKHOUSE_TCP_PORT", String.valueOf(server.tcpPort()));
        return this.runner.withInitializer((context) -> context.getEnvironment()
            .getPropertySources()
            .replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, all)));
    }

    @Test
    void settingNamesFromEnvironmentVariablesPassTheStartupCheck() {
        environment(Map.of("CLICKHOUSE_TCP_SETTINGS_MAX_THREADS", "3", "CLICKHOUSE_TCP_SETTINGS_MAX_EXECUTION_TIME", "61",
                "CLICKHOUSE_TCP_SETTINGS_DATE_TIME_64_OUTPUT_FORMAT_CUT_TRAILING_ZEROS_ALIGN_TO_GROUPS_OF_THOUSANDS", "1",
                "CLICKHOUSE_TCP_SETTINGS_LOG_COMMENT", "from-env"))
            .run((context) -> {
                assertThat(context).hasNotFailed();
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().settings()).containsOnlyKeys("max_threads", "max_execution_time",
                        "date_time_64_output_format_cut_trailing_zeros_align_to_groups_of_thousands", "log_comment");
                assertServerValues(client);
            });
    }

    @Test
    void settingNamesFromEnvironmentVariablesWorkWithoutTheStartupCheck() {
        environment(Map.of("CLICKHOUSE_TCP_SETTINGS_MAX_THREADS", "3", "CLICKHOUSE_TCP_SETTINGS_MAX_EXECUTION_TIME", "61",
                "CLICKHOUSE_TCP_SETTINGS_DATE_TIME_64_OUTPUT_FORMAT_CUT_TRAILING_ZEROS_ALIGN_TO_GROUPS_OF_THOUSANDS", "1",
                "CLICKHOUSE_TCP_SETTINGS_LOG_COMMENT", "from-env", "CLICKHOUSE_TCP_VALIDATESETTINGSONSTARTUP", "false"))
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertServerValues(context.getBean(ClickHouseTcpClient.class));
            });
    }

    private static void assertServerValues(ClickHouseTcpClient client) {
        List<Object[]> rows = client.queryRows("SELECT getSetting('max_threads'), getSetting('max_execution_time'), "
                + "getSetting('date_time_64_output_format_cut_trailing_zeros_align_to_groups_of_thousands'), "
                + "getSetting('log_comment')");
        // max_execution_time is a Float64 of seconds
        assertThat(rows.get(0)).extracting(String::valueOf).containsExactly("3", "61.0", "true", "from-env");
    }

    /** The same names written with dots in a properties file are joined the same way. */
    @Test
    void dottedNamesInPropertiesAreJoinedWithUnderscores() {
        connected(server)
            .withPropertyValues("clickhouse.tcp.settings.max.threads=3", "clickhouse.tcp.settings.max_block_size=1000")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(ClickHouseTcpClient.class).config().settings())
                    .containsEntry("max_threads", "3")
                    .containsEntry("max_block_size", "1000")
                    .hasSize(2);
            });
    }

    /** A key in brackets is the name as written: with a dot, the server refuses it and startup says so. */
    @Test
    void bracketedKeysAreKeptAsWritten() {
        connected(server)
            .withPropertyValues("clickhouse.tcp.settings[max.threads]=3", "clickhouse.tcp.settings[max_block_size]=1000")
            .run((context) -> {
                assertThat(context).hasFailed();
                assertThat(ClickHouseTcpPropertiesTests.analyze(context.getStartupFailure()).getDescription())
                    .contains("unknown setting 'max.threads' (did you mean 'max_threads'")
                    .doesNotContain("max_block_size");
            });
        connected(server)
            .withPropertyValues("clickhouse.tcp.validate-settings-on-startup=false", "clickhouse.tcp.settings[max.threads]=3",
                    "clickhouse.tcp.settings[max_block_size]=1000")
            .run((context) -> assertThat(context.getBean(ClickHouseTcpClient.class).config().settings())
                .containsOnlyKeys("max.threads", "max_block_size"));
    }

}
