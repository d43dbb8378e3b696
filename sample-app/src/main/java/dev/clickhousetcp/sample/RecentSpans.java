package dev.clickhousetcp.sample;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;

import org.springframework.stereotype.Component;

/**
 * An in-memory span exporter for the sample: keeps the last 2000 finished spans of the application (HTTP
 * server spans, the ClickHouse client's spans) so {@code GET /trace/{traceId}/spans} can show them next to
 * the spans ClickHouse recorded. Spring Boot adds every {@link SpanProcessor} bean to the OpenTelemetry SDK's
 * tracer provider. A real deployment exports to a collector instead (OTLP: add
 * {@code opentelemetry-exporter-otlp} and set {@code management.opentelemetry.tracing.export.otlp.endpoint}).
 * Thread-safe.
 */
@Component
public class RecentSpans implements SpanProcessor {

    private static final int CAPACITY = 2000;

    private final Deque<SpanData> spans = new ArrayDeque<>(CAPACITY);

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
    }

    @Override
    public boolean isStartRequired() {
        return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {
        SpanData data = span.toSpanData();
        synchronized (this.spans) {
            if (this.spans.size() == CAPACITY) {
                this.spans.removeFirst();
            }
            this.spans.addLast(data);
        }
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }

    /**
     * @param traceId 32 lowercase hex digits
     * @return the finished spans of that trace still kept, in the order they ended
     */
    public List<SpanData> ofTrace(String traceId) {
        synchronized (this.spans) {
            return this.spans.stream().filter((span) -> span.getTraceId().equals(traceId)).toList();
        }
    }
}
