package dev.clickhousetcp.observe;

import dev.clickhousetcp.protocol.TraceContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Propagation headers as the OpenTelemetry and Brave propagators write them, read into ClientInfo's trace context. */
class TraceHeadersTest {

    @Test
    void w3c() {
        TraceContext t = TraceHeaders.parse(Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                "tracestate", "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"));
        assertThat(t.traceIdHex()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(t.spanIdHex()).isEqualTo("b7ad6b7169203331");
        assertThat(t.traceFlags()).isEqualTo(1);
        assertThat(t.traceState()).isEqualTo("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
        assertThat(TraceHeaders.parse(Map.of("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"))
                .traceFlags()).isZero();
    }

    @Test
    void b3SingleAndMultiWith64BitIdsPadded() {
        TraceContext single = TraceHeaders.parse(Map.of("b3", "463ac35c9f6413ad-a2fb4a1d1a96d312-1"));
        assertThat(single.traceIdHex()).isEqualTo("0000000000000000463ac35c9f6413ad");
        assertThat(single.spanIdHex()).isEqualTo("a2fb4a1d1a96d312");
        assertThat(single.traceFlags()).isEqualTo(1);
        TraceContext multi = TraceHeaders.parse(Map.of("X-B3-TraceId", "463ac35c9f6413ad", "X-B3-SpanId",
                "a2fb4a1d1a96d312", "X-B3-Sampled", "0"));
        assertThat(multi.traceIdHex()).isEqualTo("0000000000000000463ac35c9f6413ad");
        assertThat(multi.traceFlags()).isZero();
        assertThat(TraceHeaders.parse(Map.of("x-b3-traceid", "463ac35c9f6413ad463ac35c9f6413ad", "x-b3-spanid",
                "a2fb4a1d1a96d312", "x-b3-flags", "1")).traceFlags()).isEqualTo(1);
    }

    @Test
    void nothingOrMalformedIsNoContext() {
        assertThat(TraceHeaders.parse(null)).isNull();
        assertThat(TraceHeaders.parse(Map.of())).isNull();
        assertThat(TraceHeaders.parse(Map.of("b3", "1"))).isNull();
        assertThat(TraceHeaders.parse(Map.of("traceparent", "garbage"))).isNull();
        assertThat(TraceHeaders.parse(Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-zz"))).isNull();
        assertThat(TraceHeaders.parse(Map.of("traceparent", "00-00000000000000000000000000000000-b7ad6b7169203331-01"))).isNull();
        assertThat(TraceHeaders.parse(Map.of("traceparent", "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"))).isNull();
        assertThat(TraceHeaders.parse(Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01"))).isNull();
    }
}
