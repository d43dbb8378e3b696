package dev.clickhousetcp.spring.autoconfigure.health;

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
 * The health properties' metadata has clean descriptions, and the Health section of
 * {@code docs/spring.md} lists them row for row (rendered as the starter's reference table is).
 */
class HealthConfigurationMetadataTests {

    private static final String PREFIX = "management.health.clickhousetcp.";

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
            String description = (String) property.get("description");
            assertThat(description).as(name).isNotBlank().doesNotContain("{@").doesNotContain("<").endsWith(".");
            if (name.startsWith(PREFIX)) {
                Object defaultValue = property.get("defaultValue");
                String type = ((String) property.get("type")).replaceAll("([a-z][a-z0-9_]*\\.)+", "");
                expected.put(name, "| `" + name + "` | " + type + " | "
                        + ((defaultValue != null) ? "`" + defaultValue + "`" : "") + " | " + description + " |");
            }
        }
        assertThat(expected).containsKeys(PREFIX + "enabled", PREFIX + "timeout");
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
