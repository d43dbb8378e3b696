package dev.clickhousetcp.spring.autoconfigure.endpoint;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
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
        String json;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Map<String, Object>> properties = JsonPath.read(json, "$.properties");
        Map<String, String> expected = new LinkedHashMap<>();
        for (Map<String, Object> property : properties) {
            String name = (String) property.get("name");
            if (name.startsWith(PREFIX)) {
                String description = (String) property.get("description");
                assertThat(description).as(name).isNotBlank().doesNotContain("{@").doesNotContain("<").endsWith(".");
                Object defaultValue = property.get("defaultValue");
                String type = ((String) property.get("type")).replaceAll("([a-z][a-z0-9_]*\\.)+", "")
                    .replace("<", "&lt;")
                    .replace(">", "&gt;");
                expected.put(name, "| `" + name + "` | " + type + " | "
                        + ((defaultValue != null) ? "`" + defaultValue + "`" : "") + " | " + description + " |");
            }
        }
        assertThat(expected).containsKeys(PREFIX + "show-values", PREFIX + "roles", PREFIX + "access");
        Map<String, String> documented = new LinkedHashMap<>();
        Pattern row = Pattern.compile("^\\| `(" + Pattern.quote(PREFIX) + "[^`]*)` \\|.*$");
        for (String line : Files.readAllLines(Path.of("..", "docs", "spring.md"), StandardCharsets.UTF_8)) {
            Matcher matcher = row.matcher(line);
            if (matcher.matches()) {
                documented.put(matcher.group(1), line);
            }
        }
        assertThat(documented).as("expected rows:%n%s%n", String.join("\n", expected.values()))
            .containsExactlyInAnyOrderEntriesOf(expected);
    }

}
