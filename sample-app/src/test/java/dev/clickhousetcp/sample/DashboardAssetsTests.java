package dev.clickhousetcp.sample;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every WebJar file the dashboard page links to is in the WebJar on the class path: the uPlot version named in
 * index.html is the one sample-app/pom.xml depends on ({@code uplot.version}).
 */
class DashboardAssetsTests {

    @Test
    void everyWebJarFileOfThePageExists() throws IOException {
        String page;
        try (InputStream in = DashboardAssetsTests.class.getResourceAsStream("/static/index.html")) {
            assertThat(in).as("static/index.html").isNotNull();
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher matcher = Pattern.compile("(?:href|src)=\"/(webjars/[^\"]+)\"").matcher(page);
        List<String> links = new ArrayList<>();
        while (matcher.find()) {
            links.add(matcher.group(1));
        }
        assertThat(links).isNotEmpty().allSatisfy((link) -> assertThat(
                DashboardAssetsTests.class.getClassLoader().getResource("META-INF/resources/" + link))
            .as("%s in the WebJar on the class path", link)
            .isNotNull());
    }
}
