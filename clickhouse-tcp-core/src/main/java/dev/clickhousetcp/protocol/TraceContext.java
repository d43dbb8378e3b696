package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseException;

import java.util.Locale;

/**
 * A W3C trace context carried in ClientInfo's OpenTelemetry fields (revision 54442+), so the server's
 * spans join the caller's trace.
 *
 * @param traceIdHigh upper 64 bits of the 128-bit trace id (the first 16 hex digits)
 * @param traceIdLow  lower 64 bits of the trace id
 * @param spanId      the parent span id
 * @param traceState  W3C {@code tracestate} (may be empty)
 * @param traceFlags  W3C trace flags (bit 0 = sampled)
 */
public record TraceContext(long traceIdHigh, long traceIdLow, long spanId, String traceState, int traceFlags) {

    /**
     * Creates a trace context; a {@code null} {@code traceState} becomes empty.
     *
     * @param traceIdHigh upper 64 bits of the 128-bit trace id
     * @param traceIdLow  lower 64 bits of the trace id
     * @param spanId      the parent span id
     * @param traceState  W3C {@code tracestate}, or {@code null} for none
     * @param traceFlags  W3C trace flags, 0 to 255 (bit 0 = sampled)
     */
    public TraceContext {
        traceState = traceState == null ? "" : traceState;
    }

    /**
     * Parses a W3C {@code traceparent} header value ({@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}).
     * The version field is not checked and fields after the fourth are ignored.
     *
     * @param traceparent the {@code traceparent} value; {@code null} is malformed
     * @param traceState  the {@code tracestate} value to carry along, or {@code null} for none
     * @return the parsed context
     * @throws ClickHouseException when the value is malformed
     */
    public static TraceContext fromTraceparent(String traceparent, String traceState) {
        String[] p = traceparent == null ? new String[0] : traceparent.trim().split("-");
        if (p.length < 4 || p[1].length() != 32 || p[2].length() != 16 || p[3].length() != 2) {
            throw new ClickHouseException("malformed traceparent: " + traceparent);
        }
        try {
            return new TraceContext(Long.parseUnsignedLong(p[1].substring(0, 16), 16),
                    Long.parseUnsignedLong(p[1].substring(16), 16), Long.parseUnsignedLong(p[2], 16), traceState,
                    Integer.parseInt(p[3], 16));
        } catch (NumberFormatException e) {
            throw new ClickHouseException("malformed traceparent: " + traceparent, e);
        }
    }

    /**
     * Whether the caller's span is sampled: bit 0 of {@link #traceFlags()} (W3C Trace Context, "sampled").
     * An unsampled context is not sent to the server (see {@link ClientInfo}).
     *
     * @return {@code true} when the sampled flag is set
     */
    public boolean sampled() {
        return (traceFlags & 1) != 0;
    }

    /**
     * The trace id in W3C form.
     *
     * @return 32 lower-case hex digits, {@link #traceIdHigh()} first
     */
    public String traceIdHex() {
        return String.format(Locale.ROOT, "%016x%016x", traceIdHigh, traceIdLow);
    }

    /**
     * The span id in W3C form.
     *
     * @return 16 lower-case hex digits
     */
    public String spanIdHex() {
        return String.format(Locale.ROOT, "%016x", spanId);
    }
}
