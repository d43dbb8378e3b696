package dev.clickhousetcp.spring.docker.compose;

import java.util.Collections;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** {@link ClickHouseEnvironment}: the variables of the {@code clickhouse/clickhouse-server} image. */
class ClickHouseEnvironmentTests {

    @Test
    void passwordIsRequiredUnlessEmptyIsAllowed() {
        assertThatIllegalStateException().isThrownBy(() -> new ClickHouseEnvironment(Collections.emptyMap()))
            .withMessageContaining("CLICKHOUSE_PASSWORD")
            .withMessageContaining("ALLOW_EMPTY_PASSWORD");
        assertThat(new ClickHouseEnvironment(Map.of("ALLOW_EMPTY_PASSWORD", "yes")).getPassword()).isEmpty();
        assertThat(new ClickHouseEnvironment(Map.of("ALLOW_EMPTY_PASSWORD", "1", "CLICKHOUSE_PASSWORD", ""))
            .getPassword()).isEmpty();
        assertThat(new ClickHouseEnvironment(Map.of("CLICKHOUSE_PASSWORD", "secret")).getPassword()).isEqualTo("secret");
    }

    @Test
    void userAndDatabaseDefaultToDefault() {
        ClickHouseEnvironment environment = new ClickHouseEnvironment(Map.of("CLICKHOUSE_PASSWORD", "secret"));
        assertThat(environment.getUsername()).isEqualTo("default");
        assertThat(environment.getDatabase()).isEqualTo("default");
    }

    @Test
    void userAndDatabaseFromTheEnvironment() {
        ClickHouseEnvironment environment = new ClickHouseEnvironment(
                Map.of("CLICKHOUSE_USER", "app", "CLICKHOUSE_PASSWORD", "secret", "CLICKHOUSE_DB", "analytics"));
        assertThat(environment.getUsername()).isEqualTo("app");
        assertThat(environment.getDatabase()).isEqualTo("analytics");
    }

}
