package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.data.TextFormat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProtocolUnitTest {

    @Test
    void chunkedNegotiationFollowsTheServerRules() {
        assertThat(ChunkedMode.negotiate("chunked_optional", "notchunked_optional", "send")).isFalse();
        assertThat(ChunkedMode.negotiate("chunked_optional", "chunked", "send")).isTrue();
        assertThat(ChunkedMode.negotiate("chunked", "notchunked_optional", "send")).isTrue();
        assertThat(ChunkedMode.negotiate("notchunked", "notchunked_optional", "send")).isFalse();
        assertThat(ChunkedMode.negotiate("chunked", "chunked", "send")).isTrue();
        assertThatThrownBy(() -> ChunkedMode.negotiate("chunked", "notchunked", "send"))
                .isInstanceOf(ClickHouseProtocolException.class);
        assertThatThrownBy(() -> ChunkedMode.negotiate("bogus", "notchunked", "send"))
                .isInstanceOf(ClickHouseProtocolException.class);
    }

    @Test
    void featureGates() {
        assertThat(ProtocolRevision.CLIENT).isEqualTo(54488);
        assertThat(ProtocolFeature.ADDENDUM.in(54458)).isTrue();
        assertThat(ProtocolFeature.ADDENDUM.in(54457)).isFalse();
        assertThat(ProtocolFeature.CUSTOM_SERIALIZATION.in(54412)).isFalse();
    }

    @Test
    void traceparentParsing() {
        TraceContext t = TraceContext.fromTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "k=v");
        assertThat(t.traceIdHex()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(t.spanIdHex()).isEqualTo("b7ad6b7169203331");
        assertThat(t.traceFlags()).isEqualTo(1);
        assertThatThrownBy(() -> TraceContext.fromTraceparent("00-xyz-01", null)).isInstanceOf(ClickHouseException.class);
    }

    @Test
    void floatTextMatchesClickHouse() {
        // expected strings are the 26.7 server's toString output
        assertThat(TextFormat.formatDouble(1e21)).isEqualTo("1e21");
        assertThat(TextFormat.formatDouble(1e20)).isEqualTo("100000000000000000000");
        assertThat(TextFormat.formatDouble(1e-7)).isEqualTo("1e-7");
        assertThat(TextFormat.formatDouble(1e-6)).isEqualTo("0.000001");
        assertThat(TextFormat.formatDouble(0.1 + 0.2)).isEqualTo("0.30000000000000004");
        assertThat(TextFormat.formatDouble(-0.0)).isEqualTo("-0");
        assertThat(TextFormat.formatDouble(5e-324)).isEqualTo("5e-324");
        assertThat(TextFormat.formatDouble(Double.NaN)).isEqualTo("nan");
        assertThat(TextFormat.formatDouble(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
        assertThat(TextFormat.formatFloat(3.4028235e38f)).isEqualTo("3.4028235e38");
        assertThat(TextFormat.formatFloat(1.17549435e-38f)).isEqualTo("1.1754944e-38");
        assertThat(TextFormat.formatFloat(0.1f)).isEqualTo("0.1");
    }
}
