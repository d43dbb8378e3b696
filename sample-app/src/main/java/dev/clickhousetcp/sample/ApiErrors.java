package dev.clickhousetcp.sample;

import java.time.Instant;
import java.util.Collection;
import java.util.Locale;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.MismatchedInputException;

import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * How the sample's errors become HTTP answers, as RFC 9457 problem details ({@code application/problem+json}):
 * bad input 400, an unknown report 404, an {@code Idempotency-Key} for a table that cannot deduplicate 409,
 * too many running reports 429, the table not created yet 503 (with {@code Retry-After}). Spring MVC's own
 * errors (an unreadable body, a wrong {@code Content-Type}, a parameter that is not a number, a missing
 * parameter, an unknown path, a wrong method) come from {@link ResponseEntityExceptionHandler} in the same form;
 * the unreadable body and a parameter of the wrong type get a detail that says which field or parameter is
 * wrong, without the parser's internals. Everything else, including ClickHouse failures (the template's
 * {@code DataAccessException}s), keeps Spring's default 500.
 */
@RestControllerAdvice
public class ApiErrors extends ResponseEntityExceptionHandler {

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badRequest(IllegalArgumentException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
    }

    @ExceptionHandler(ReportController.ReportNotFoundException.class)
    ProblemDetail notFound(ReportController.ReportNotFoundException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
    }

    @ExceptionHandler(SchemaInitializer.DeduplicationUnavailableException.class)
    ProblemDetail noDeduplication(SchemaInitializer.DeduplicationUnavailableException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
    }

    @ExceptionHandler(SlowReports.TooManyReportsException.class)
    ProblemDetail tooMany(SlowReports.TooManyReportsException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS, ex.getMessage());
    }

    @ExceptionHandler(SchemaInitializer.SchemaNotReadyException.class)
    ResponseEntity<ProblemDetail> notReady(SchemaInitializer.SchemaNotReadyException ex) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
            .header(HttpHeaders.RETRY_AFTER, "5")
            .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage()));
    }

    /** A body that is missing, not JSON, or JSON of the wrong shape: say where and what was expected. */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, unreadable(ex));
        return handleExceptionInternal(ex, body, headers, status, request);
    }

    /** A query parameter or path variable that is not of its type, for example {@code count=abc}. */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = (ex.getPropertyName() != null) ? ex.getPropertyName() : "a parameter";
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, name + " must be " + expected(ex.getRequiredType())
                + ", got '" + ex.getValue() + "'");
        return handleExceptionInternal(ex, body, headers, status, request);
    }

    private static String unreadable(HttpMessageNotReadableException ex) {
        Throwable cause = ex.getCause();
        if (cause instanceof StreamReadException parse) {
            TokenStreamLocation at = parse.getLocation();
            return "the request body is not valid JSON" + ((at != null && at.getLineNr() > 0)
                    ? " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")" : "")
                    + "; expected a JSON array of events";
        }
        if (cause instanceof MismatchedInputException mismatch) {
            String path = path(mismatch);
            if (path.isEmpty()) {
                return "the request body must be a JSON array of events";
            }
            return "events" + path + " must be " + expected(mismatch.getTargetType());
        }
        if (cause instanceof JacksonException json) {
            String path = path(json);
            return path.isEmpty() ? "the request body is not a JSON array of events"
                    : "events" + path + " has an invalid value";
        }
        return "the request body is missing or unreadable; expected a JSON array of events";
    }

    /** The JSON path of the value, as {@code [0].userId}. */
    private static String path(JacksonException ex) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : ex.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append('.').append(reference.getPropertyName());
            }
            else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == int.class || type == Integer.class) {
            return "an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        }
        if (type == long.class || type == Long.class) {
            return "an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
        }
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == Instant.class) {
            return "an ISO-8601 instant such as 2025-01-02T03:04:05Z";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (type == Event.class) {
            return "an event object";
        }
        return "a " + type.getSimpleName().toLowerCase(Locale.ROOT);
    }
}
