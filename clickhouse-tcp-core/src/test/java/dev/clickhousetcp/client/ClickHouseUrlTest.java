package dev.clickhousetcp.client;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** {@link ClickHouseUrl} parsing (no server involved). */
class ClickHouseUrlTest {
    private static final String SECRET = "s3cr3t-Pw";

    @Test
    void fullUrl() {
        ClickHouseUrl url = ClickHouseUrl.parse("clickhouse://app:" + SECRET
                + "@ch1:9001,ch2,[::1]:9440/analytics?compression=zstd&zstd_level=3&secure=true&client_name=svc"
                + "&max_threads=4&max_execution_time=60");
        assertThat(url.user()).contains("app");
        assertThat(url.password()).contains(SECRET);
        assertThat(url.hosts()).containsExactly("ch1", "ch2", "::1");
        assertThat(url.endpoints(9000)).containsExactly(new Endpoint("ch1", 9001), new Endpoint("ch2", 9000),
                new Endpoint("::1", 9440));
        assertThat(url.database()).contains("analytics");
        assertThat(url.secure()).contains(true);
        assertThat(url.compression()).contains(Compression.zstd(3));
        assertThat(url.clientName()).contains("svc");
        assertThat(url.settings()).containsExactly(Map.entry("max_threads", "4"), Map.entry("max_execution_time", "60"));
        assertThat(url.toString()).doesNotContain(SECRET).startsWith("clickhouse://app:***@ch1:9001,ch2,[::1]:9440/analytics?");
    }

    @Test
    void minimalUrls() {
        ClickHouseUrl bare = ClickHouseUrl.parse("clickhouse://");
        assertThat(bare.hosts()).isEmpty();
        assertThat(bare.user()).isEmpty();
        assertThat(bare.password()).isEmpty();
        assertThat(bare.database()).isEmpty();
        assertThat(bare.secure()).isEmpty();
        assertThat(bare.compression()).isEmpty();
        assertThat(bare.settings()).isEmpty();

        ClickHouseUrl host = ClickHouseUrl.parse("CLICKHOUSE://localhost/");
        assertThat(host.endpoints(9440)).containsExactly(new Endpoint("localhost", 9440));
        assertThat(host.database()).isEmpty();

        ClickHouseUrl userOnly = ClickHouseUrl.parse("clickhouse://reader@h?secure");
        assertThat(userOnly.user()).contains("reader");
        assertThat(userOnly.password()).isEmpty();
        assertThat(userOnly.secure()).contains(true);

        assertThat(ClickHouseUrl.parse("clickhouse://u:@h").password()).contains("");
        assertThat(ClickHouseUrl.parse("clickhouse:///db").database()).contains("db");
        assertThat(ClickHouseUrl.parse("clickhouse://h?compression=NONE").compression()).contains(Compression.NONE);
        assertThat(ClickHouseUrl.parse("clickhouse://h?compression=lz4&secure=false").compression())
                .contains(Compression.LZ4);
    }

    @Test
    void percentEncodedPartsAreDecoded() {
        ClickHouseUrl url = ClickHouseUrl.parse(
                "clickhouse://us%3Aer:p%40ss%2Fw%3Ford%25@h/my%20db?log_comment=a%26b%3Dc&custom_x=%C3%A9+1");
        assertThat(url.user()).contains("us:er");
        assertThat(url.password()).contains("p@ss/w?ord%");
        assertThat(url.database()).contains("my db");
        assertThat(url.settings()).containsEntry("log_comment", "a&b=c").containsEntry("custom_x", "é+1");
    }

    @Test
    void unencodedAtInThePasswordStillSplitsAtTheLastAt() {
        ClickHouseUrl url = ClickHouseUrl.parse("clickhouse://u:p@ss:w@h:9000");
        assertThat(url.user()).contains("u");
        assertThat(url.password()).contains("p@ss:w");
        assertThat(url.endpoints(1)).containsExactly(new Endpoint("h", 9000));
    }

    @Test
    void settingValuesMayHoldAtSigns() {
        ClickHouseUrl url = ClickHouseUrl.parse("clickhouse://h/db?log_comment=me@example.org");
        assertThat(url.settings()).containsEntry("log_comment", "me@example.org");
        assertThat(url.user()).isEmpty();
    }

    @Test
    void clientOptionsAreNotSettings() {
        assertThat(ClickHouseUrl.CLIENT_OPTIONS).containsExactlyInAnyOrder("secure", "compression", "zstd_level",
                "client_name");
        ClickHouseUrl url = ClickHouseUrl.parse("clickhouse://h?secure=1&client_name=x&load_balancing=random");
        assertThat(url.settings()).containsOnlyKeys("load_balancing");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "localhost:9000",
        "http://localhost:8123",
        "jdbc:clickhouse://localhost:8123",
        "clickhouse://h:notaport",
        "clickhouse://h:0",
        "clickhouse://h:65536",
        "clickhouse://h1,,h2",
        "clickhouse://h1,",
        "clickhouse://::1:9000",
        "clickhouse://[::1:9000",
        "clickhouse://[::1]x",
        "clickhouse://h/db/more",
        "clickhouse://h?max_threads",
        "clickhouse://h?=4",
        "clickhouse://h?max_threads=4&max_threads=5",
        "clickhouse://h?secure=maybe",
        "clickhouse://h?compression=gzip",
        "clickhouse://h?zstd_level=3",
        "clickhouse://h?compression=lz4&zstd_level=3",
        "clickhouse://h?compression=zstd&zstd_level=23",
        "clickhouse://h?compression=zstd&zstd_level=x",
        "clickhouse://h/d%zz",
        "clickhouse://@h",
        "clickhouse://h#frag",
    })
    void malformedUrlsAreRejectedWithAReason(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseUrl.parse(text))
                .withMessageStartingWith("malformed ClickHouse URL: ")
                .withMessageContaining("expected clickhouse://");
    }

    @Test
    void messagesNameTheProblem() {
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseUrl.parse("http://h:8123"))
                .withMessageContaining("not HTTP");
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseUrl.parse("clickhouse://a:9000,b:x"))
                .withMessageContaining("host 2 of 2");
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseUrl.parse("clickhouse://h:70000"))
                .withMessageContaining("'70000'");
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseUrl.parse("clickhouse://h?max_threads"))
                .withMessageContaining("'max_threads' has no value");
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseUrl.parse("clickhouse://h?a=1&a=2"))
                .withMessageContaining("'a' appears more than once");
    }

    /** Passwords with unencoded reserved characters: the error says how to fix it and never shows the password. */
    @ParameterizedTest
    @ValueSource(strings = {
        "clickhouse://app:" + "Qz9/" + SECRET + "@h:9000/db",
        "clickhouse://app:" + "Qz9?" + SECRET + "@h:9000/db",
        "clickhouse://app:" + "Qz9?x=" + SECRET + "@h:9000/db",
        "clickhouse://app:" + "Qz9#" + SECRET + "@h:9000/db",
        "clickhouse://app:" + SECRET + "%zz@h:9000/db",
        "clickhouse://app:" + SECRET + "%4@h:9000/db",
        "clickhouse://app:" + SECRET + "@h:port" + SECRET,
    })
    void errorsNeverShowThePassword(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseUrl.parse(text))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET).doesNotContain("Qz9"));
    }

    @Test
    void builderAppliesTheUrl() {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .url("clickhouse://app:" + SECRET + "@ch1:9001/analytics?compression=none&client_name=svc&max_threads=2")
                .build()) {
            ConnectionConfig config = client.config();
            assertThat(config.host()).isEqualTo("ch1");
            assertThat(config.port()).isEqualTo(9001);
            assertThat(config.user()).isEqualTo("app");
            assertThat(config.password()).isEqualTo(SECRET);
            assertThat(config.database()).isEqualTo("analytics");
            assertThat(config.clientName()).isEqualTo("svc");
            assertThat(config.compression()).isEqualTo(Compression.NONE);
            assertThat(config.settings()).containsExactly(Map.entry("max_threads", "2"));
            assertThat(config.tls()).isNull();
            assertThat(client.poolConfig().endpoints()).containsExactly(new Endpoint("ch1", 9001));
            assertThat(client.toString()).doesNotContain(SECRET);
        }
    }

    @Test
    void builderWithSeveralHostsAndTls() {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .url("clickhouse://ch1,ch2:9441?secure=true").build()) {
            assertThat(client.poolConfig().endpoints()).containsExactly(new Endpoint("ch1", 9440),
                    new Endpoint("ch2", 9441));
            assertThat(client.config().tls()).isNotNull();
            assertThat(client.config().tls().hostnameVerification()).isTrue();
        }
        TlsConfig own = TlsConfig.builder().hostnameVerification(false).build();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().tls(own).url("clickhouse://ch1?secure=true")
                .build()) {
            assertThat(client.config().tls()).isSameAs(own);
            assertThat(client.config().port()).isEqualTo(9440);
        }
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().tls(own).url("clickhouse://ch1?secure=false")
                .build()) {
            assertThat(client.config().tls()).isNull();
            assertThat(client.config().port()).isEqualTo(9000);
        }
    }

    @Test
    void laterBuilderCallsOverrideTheUrl() {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .endpoints(List.of("a:1", "b:2"))
                .url("clickhouse://u@ch1/db1?max_threads=2")
                .database("db2").setting("max_threads", 3).build()) {
            assertThat(client.poolConfig().endpoints()).containsExactly(new Endpoint("ch1", 9000));
            assertThat(client.config().database()).isEqualTo("db2");
            assertThat(client.config().settings()).containsEntry("max_threads", "3");
        }
    }

    @Test
    void toStringHidesSecretQueryParameters() {
        ClickHouseUrl url = ClickHouseUrl.parse("clickhouse://h/db?password=pw1&S3_Secret_Access_Key=pw2"
                + "&kafka_sasl_password=pw3&max_threads=4");
        assertThat(url.settings()).containsEntry("password", "pw1");
        assertThat(url.toString()).doesNotContain("pw1", "pw2", "pw3")
                .contains("password=***", "S3_Secret_Access_Key=***", "kafka_sasl_password=***", "max_threads=4");
    }
}
