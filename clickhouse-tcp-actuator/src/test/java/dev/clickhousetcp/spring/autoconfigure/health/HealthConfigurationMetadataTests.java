package dev.clickhousetcp.spring.autoconfigure.health;

import java.io.IOException;
import java.util.Map;

import dev.clickhousetcp.spring.autoconfigure.ConfigurationMetadataRows;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health properties' metadata has clean descriptions, and the Health section of
 * {@code docs/spring.md} lists them row for row (rendered as the starter's reference table is).
 */
class HealthConfigurationMetadataTests {

    private static final String PREFIX = "management.health.clickhousetcp.";

    @Test
    void metadataAndDocsAgree() throws IOException {
        Map<String, String> expected = ConfigurationMetadataRows.expected(PREFIX);
        assertThat(expected).containsKeys(PREFIX + "enabled", PREFIX + "timeout");
        assertThat(ConfigurationMetadataRows.documented(PREFIX))
            .as("expected rows:%n%s%n", String.join("\n", expected.values()))
            .containsExactlyInAnyOrderEntriesOf(expected);
    }

}
