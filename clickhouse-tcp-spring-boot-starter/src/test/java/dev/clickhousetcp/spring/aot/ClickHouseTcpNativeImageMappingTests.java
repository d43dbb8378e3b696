package dev.clickhousetcp.spring.aot;

import java.util.List;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.mapping.AccessMode;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NativeDetector;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a native image the auto-configured client maps objects with {@code java.lang.reflect} (no run-time
 * bytecode): its mappers keep the {@code AUTO} access mode, which resolves to {@code REFLECTION} when GraalVM's
 * {@code org.graalvm.nativeimage.imagecode} system property is set (the property Spring's {@link NativeDetector}
 * reads). Simulated here on the JVM by setting the property around the mapping, against the real server.
 */
@ClickHouseTest
class ClickHouseTcpNativeImageMappingTests {

    private static final String IMAGE_CODE = "org.graalvm.nativeimage.imagecode";

    record Row(long n, String text) {
    }

    @Test
    void autoConfiguredClientMapsWithReflectionInANativeImage(ClickHouseServer server) {
        // Spring reads the property once; it must keep seeing a JVM here.
        assertThat(NativeDetector.inNativeImage()).isFalse();
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class))
            .withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort())
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.mappers().config().accessMode()).isEqualTo(AccessMode.AUTO);
                assertThat(AccessMode.AUTO.resolve()).isEqualTo(AccessMode.LAMBDA);
                ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
                String previous = System.setProperty(IMAGE_CODE, "runtime");
                try {
                    assertThat(AccessMode.AUTO.resolve()).isEqualTo(AccessMode.REFLECTION);
                    // A plan built now (a column set not seen before) uses reflection.
                    long before = client.mappers().plansBuilt();
                    List<Row> rows = template.query("SELECT number AS n, toString(number) AS text FROM numbers(3)",
                            Row.class);
                    assertThat(rows).containsExactly(new Row(0, "0"), new Row(1, "1"), new Row(2, "2"));
                    assertThat(client.mappers().plansBuilt()).isEqualTo(before + 1);
                }
                finally {
                    if (previous == null) {
                        System.clearProperty(IMAGE_CODE);
                    }
                    else {
                        System.setProperty(IMAGE_CODE, previous);
                    }
                }
            });
    }
}
