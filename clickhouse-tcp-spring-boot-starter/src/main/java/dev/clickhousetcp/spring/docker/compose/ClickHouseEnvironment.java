package dev.clickhousetcp.spring.docker.compose;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * Credentials and database of a {@code clickhouse/clickhouse-server} container, from the environment
 * variables its entry point reads: {@code CLICKHOUSE_USER} (default {@code default}),
 * {@code CLICKHOUSE_PASSWORD} (required unless {@code ALLOW_EMPTY_PASSWORD} is set, as the image
 * demands for network access without one) and {@code CLICKHOUSE_DB} (default {@code default}).
 */
class ClickHouseEnvironment {

    private final String username;

    private final String password;

    private final String database;

    ClickHouseEnvironment(Map<String, @Nullable String> env) {
        String user = env.get("CLICKHOUSE_USER");
        this.username = StringUtils.hasText(user) ? user : "default";
        String password = env.get("CLICKHOUSE_PASSWORD");
        if (!StringUtils.hasLength(password) && !env.containsKey("ALLOW_EMPTY_PASSWORD")) {
            throw new IllegalStateException("No ClickHouse password found: set CLICKHOUSE_PASSWORD, or "
                    + "ALLOW_EMPTY_PASSWORD for none, in the environment of the clickhouse/clickhouse-server service");
        }
        this.password = (password != null) ? password : "";
        String database = env.get("CLICKHOUSE_DB");
        this.database = StringUtils.hasText(database) ? database : "default";
    }

    String getUsername() {
        return this.username;
    }

    String getPassword() {
        return this.password;
    }

    String getDatabase() {
        return this.database;
    }

}
