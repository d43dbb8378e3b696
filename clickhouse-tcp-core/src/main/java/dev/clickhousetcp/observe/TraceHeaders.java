package dev.clickhousetcp.observe;

import java.util.Locale;
import java.util.Map;

import dev.clickhousetcp.protocol.TraceContext;

/**
 * Reads the trace context a tracer's propagator wrote into an observation's carrier
 * ({@link ClickHouseTcpObservationContext}) and turns it into the {@link TraceContext} the query's
 * ClientInfo carries. Understands the W3C headers ({@code traceparent}, {@code tracestate}) and B3
 * (single {@code b3} header, or {@code X-B3-TraceId} / {@code X-B3-SpanId} / {@code X-B3-Sampled} /
 * {@code X-B3-Flags}), so it works with any propagator Micrometer Tracing's OpenTelemetry and Brave
 * bridges are configured with. 64-bit trace ids (Brave's default) are padded with zeros to 128 bits, as
 * W3C Trace Context prescribes. Header names are matched ignoring case.
 *
 * <p>Stateless and thread-safe.
 */
public final class TraceHeaders {

    private TraceHeaders() {
    }

    /**
     * The trace context in {@code headers}, or {@code null} when they hold none or only a malformed one
     * (a malformed header never fails a query: the query then carries no trace context).
     *
     * @param headers propagation headers, as a propagator wrote them
     * @return the context, with the sender's span id as the parent span id
     */
    public static TraceContext parse(Map<String, String> headers) {
        if (headers == null || headers.isEmpty()) {
            return null;
        }
        String traceparent = get(headers, "traceparent");
        if (traceparent != null) {
            return w3c(traceparent, get(headers, "tracestate"));
        }
        String b3 = get(headers, "b3");
        if (b3 != null) {
            String[] p = b3.trim().split("-");
            if (p.length < 2) {
                return null; // "0", "1", "d": a sampling decision alone
            }
            return context(p[0], p[1], p.length > 2 ? p[2] : null, null, "");
        }
        String traceId = get(headers, "x-b3-traceid");
        String spanId = get(headers, "x-b3-spanid");
        if (traceId != null && spanId != null) {
            return context(traceId, spanId, get(headers, "x-b3-sampled"), get(headers, "x-b3-flags"), "");
        }
        return null;
    }

    private static TraceContext w3c(String traceparent, String tracestate) {
        String[] p = traceparent.trim().split("-");
        if (p.length < 4 || p[0].length() != 2 || p[3].length() != 2 || "ff".equalsIgnoreCase(p[0])) {
            return null;
        }
        int flags;
        try {
            flags = Integer.parseInt(p[3], 16);
        } catch (NumberFormatException e) {
            return null;
        }
        return ids(p[1], p[2], flags, tracestate == null ? "" : tracestate.trim());
    }

    private static TraceContext context(String traceId, String spanId, String sampled, String debugFlags, String state) {
        boolean sample = "1".equals(debugFlags) || "d".equalsIgnoreCase(sampled) || "1".equals(sampled)
                || "true".equalsIgnoreCase(sampled);
        return ids(traceId, spanId, sample ? 1 : 0, state);
    }

    /** A context from hex ids: a 16- or 32-digit trace id (16 digits are padded) and a 16-digit span id. */
    private static TraceContext ids(String traceId, String spanId, int flags, String state) {
        String trace = traceId.trim().toLowerCase(Locale.ROOT);
        String span = spanId.trim().toLowerCase(Locale.ROOT);
        if (trace.length() == 16) {
            trace = "0000000000000000" + trace;
        }
        if (trace.length() != 32 || span.length() != 16 || !hex(trace) || !hex(span)) {
            return null;
        }
        long high = Long.parseUnsignedLong(trace.substring(0, 16), 16);
        long low = Long.parseUnsignedLong(trace.substring(16), 16);
        long spanBits = Long.parseUnsignedLong(span, 16);
        if ((high == 0 && low == 0) || spanBits == 0) {
            return null; // all-zero ids are invalid
        }
        return new TraceContext(high, low, spanBits, state, flags & 0xff);
    }

    private static boolean hex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static String get(Map<String, String> headers, String name) {
        String v = headers.get(name);
        if (v != null) {
            return v;
        }
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }
}
