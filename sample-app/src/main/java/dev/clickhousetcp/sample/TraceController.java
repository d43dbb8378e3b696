package dev.clickhousetcp.sample;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.opentelemetry.sdk.trace.data.SpanData;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /trace/{traceId}/spans[?flush=true]} — one trace from both sides: the application's spans
 * ({@link RecentSpans}: the HTTP request, the ClickHouse client calls) and the spans ClickHouse recorded for
 * the queries of that trace ({@code system.opentelemetry_span_log}; the starter sends each query's W3C trace
 * context, so the server's root span of a query is a child of the client span that sent it). The trace id
 * of a request is in the app's log lines ({@code logging.pattern.correlation}) and in the
 * {@code traceparent} a caller sends.
 */
@RestController
public class TraceController {

    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");

    private final EventRepository events;

    private final RecentSpans recentSpans;

    /**
     * @param events reads the server's span log
     * @param recentSpans the application's recent spans
     */
    public TraceController(EventRepository events, RecentSpans recentSpans) {
        this.events = events;
        this.recentSpans = recentSpans;
    }

    @GetMapping("/trace/{traceId}/spans")
    Map<String, Object> spans(@PathVariable String traceId, @RequestParam(defaultValue = "false") boolean flush) {
        if (!TRACE_ID.matcher(traceId).matches() || traceId.equals("0".repeat(32))) {
            throw new IllegalArgumentException("a trace id is 32 lowercase hex digits, not all zero");
        }
        List<Map<String, Object>> client = this.recentSpans.ofTrace(traceId).stream().map(TraceController::describe)
            .toList();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("traceId", traceId);
        body.put("application", client);
        body.put("clickhouse", this.events.serverSpans(traceId, flush));
        return body;
    }

    private static Map<String, Object> describe(SpanData span) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("name", span.getName());
        map.put("kind", span.getKind().name());
        map.put("spanId", span.getSpanId());
        map.put("parentSpanId", span.getParentSpanId());
        map.put("durationUs", (span.getEndEpochNanos() - span.getStartEpochNanos()) / 1000);
        Map<String, Object> attributes = new LinkedHashMap<>();
        span.getAttributes().forEach((key, value) -> attributes.put(key.getKey(), value));
        map.put("attributes", attributes);
        return map;
    }
}
