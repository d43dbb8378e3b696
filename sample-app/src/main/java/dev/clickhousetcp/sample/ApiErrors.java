package dev.clickhousetcp.sample;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * How the sample's errors become HTTP answers, as RFC 9457 problem details: bad input 400, too many running
 * reports 429, the table not created yet 503 (with {@code Retry-After}). Everything else, including
 * ClickHouse failures (the template's {@code DataAccessException}s), keeps Spring's default 500.
 */
@RestControllerAdvice
public class ApiErrors {

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badRequest(IllegalArgumentException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
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
}
