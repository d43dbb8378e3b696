package dev.clickhousetcp.spring.autoconfigure.endpoint;

import java.io.IOException;
import java.util.Map;

import dev.clickhousetcp.spring.autoconfigure.ConfigurationMetadataRows;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code clickhouse} endpoint's properties in the generated metadata (ours and those Spring Boot's
 * configuration processor adds for every {@code @Endpoint}) match the table of {@code docs/spring.md} row
 * for row.
 */
class ClickHouseEndpointConfigurationMetadataTests {

    private static final String PREFIX = "management.endpoint.clickhouse.";

    @Test
    void metadataAndDocsAgree() throws IOException {
        Map<String, String> expected = ConfigurationMetadataRows.expected(PREFIX);
        assertThat(expected).containsKeys(PREFIX + "show-values", PREFIX + "roles", PREFIX + "access");
        assertThat(ConfigurationMetadataRows.documented(PREFIX))
            .as("expected rows:%n%s%n", String.join("\n", expected.values()))
            .containsExactlyInAnyOrderEntriesOf(expected);
    }

}
