package dev.clickhousetcp.spring.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code clickhouse.tcp.settings} given as environment variables ({@code CLICKHOUSE_TCP_SETTINGS_MAX_THREADS=3}):
 * relaxed binding splits the variable's name at each underscore, and the setting's name is those parts joined
 * with underscores again, as ClickHouse names never hold a dot; keys in brackets are kept as written.
 */
@ClickHouseTest
class ClickHouseTcpSettingsEnvironmentTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

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
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort(),
                    "clickhouse.tcp.settings.max.threads=3", "clickhouse.tcp.settings.max_block_size=1000")
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
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort(),
                    "clickhouse.tcp.settings[max.threads]=3", "clickhouse.tcp.settings[max_block_size]=1000")
            .run((context) -> {
                assertThat(context).hasFailed();
                assertThat(ClickHouseTcpPropertiesTests.analyze(context.getStartupFailure()).getDescription())
                    .contains("unknown setting 'max.threads' (did you mean 'max_threads'")
                    .doesNotContain("max_block_size");
            });
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort(),
                    "clickhouse.tcp.validate-settings-on-startup=false", "clickhouse.tcp.settings[max.threads]=3",
                    "clickhouse.tcp.settings[max_block_size]=1000")
            .run((context) -> assertThat(context.getBean(ClickHouseTcpClient.class).config().settings())
                .containsOnlyKeys("max.threads", "max_block_size"));
    }

}
