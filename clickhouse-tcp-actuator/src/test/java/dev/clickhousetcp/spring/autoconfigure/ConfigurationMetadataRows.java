package dev.clickhousetcp.spring.autoconfigure;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module's generated configuration metadata rendered as the rows of {@code docs/spring.md}'s property
 * tables, and the rows the document has, for tests that keep the two in step.
 */
public final class ConfigurationMetadataRows {

    private ConfigurationMetadataRows() {
    }

    /**
     * The table row each property under {@code prefix} should have: {@code | `name` | type | `default` |
     * description |}, the type without package names and with {@code <>} escaped. Checks on the way that
     * every property of the metadata has a clean description (not blank, no Javadoc tags or HTML, a full stop).
     * @param prefix the property prefix, ending with a dot
     * @return the rows by property name, in the metadata's order
     * @throws IOException when the metadata cannot be read
     */
    public static Map<String, String> expected(String prefix) throws IOException {
        String json;
        try (InputStream in = ConfigurationMetadataRows.class
            .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Map<String, Object>> properties = JsonPath.read(json, "$.properties");
        Map<String, String> expected = new LinkedHashMap<>();
        for (Map<String, Object> property : properties) {
            String name = (String) property.get("name");
            String description = (String) property.get("description");
            assertThat(description).as(name).isNotBlank().doesNotContain("{@").doesNotContain("<").endsWith(".");
            if (name.startsWith(prefix)) {
                Object defaultValue = property.get("defaultValue");
                String type = ((String) property.get("type")).replaceAll("([a-z][a-z0-9_]*\\.)+", "")
                    .replace("<", "&lt;")
                    .replace(">", "&gt;");
                expected.put(name, "| `" + name + "` | " + type + " | "
                        + ((defaultValue != null) ? "`" + defaultValue + "`" : "") + " | " + description + " |");
            }
        }
        return expected;
    }

    /**
     * The rows of {@code docs/spring.md} whose first cell is a property under {@code prefix}.
     * @param prefix the property prefix, ending with a dot
     * @return the whole row lines by property name
     * @throws IOException when the document cannot be read
     */
    public static Map<String, String> documented(String prefix) throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        Pattern row = Pattern.compile("^\\| `(" + Pattern.quote(prefix) + "[^`]*)` \\|.*$");
        for (String line : Files.readAllLines(Path.of("..", "docs", "spring.md"), StandardCharsets.UTF_8)) {
            Matcher matcher = row.matcher(line);
            if (matcher.matches()) {
                documented.put(matcher.group(1), line);
            }
        }
        return documented;
    }

}
