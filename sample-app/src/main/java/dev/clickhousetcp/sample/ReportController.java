package dev.clickhousetcp.sample;

import java.net.URI;
import java.util.Locale;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Reports of the sample app.
 *
 * <ul>
 * <li>{@code GET /reports/power-users?minEvents=10} — users with at least that many events and what they do:
 * several steps over one session with a temporary table.</li>
 * <li>{@code POST /reports/slow?seconds=60} — starts a long query; answers 202 with its id (its query_id)
 * and state {@code RUNNING}.</li>
 * <li>{@code GET /reports/{id}} — its state (404 for an unknown id; the id is a UUID, in either case): {@code RUNNING}, {@code DONE} (with {@code rows}),
 * {@code CANCELLING}, {@code CANCELLED} or {@code FAILED}.</li>
 * <li>{@code DELETE /reports/{id}} — cancels it (answers {@code CANCELLING} while it runs); the query leaves
 * {@code system.processes} within a fraction of a second, and the state turns {@code CANCELLED}.</li>
 * </ul>
 */
@RestController
public class ReportController {

    /** The path of one report: its id, a UUID in either case ({@code GET /reports/slow} is then 405, not an id). */
    private static final String REPORT =
            "/reports/{id:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}";

    private final EventRepository events;

    private final SlowReports slowReports;

    private final SchemaInitializer schema;

    /**
     * @param events the repository
     * @param slowReports the running reports
     * @param schema tells whether the table exists yet
     */
    public ReportController(EventRepository events, SlowReports slowReports, SchemaInitializer schema) {
        this.events = events;
        this.slowReports = slowReports;
        this.schema = schema;
    }

    @GetMapping("/reports/power-users")
    EventRepository.PowerUsers powerUsers(@RequestParam(defaultValue = "10") long minEvents) {
        if (minEvents < 1) {
            throw new IllegalArgumentException("minEvents must be 1 or more");
        }
        this.schema.requireReady();
        return this.events.powerUsers(minEvents);
    }

    @PostMapping("/reports/slow")
    ResponseEntity<SlowReports.Status> startSlow(@RequestParam(defaultValue = "60") int seconds) {
        if (seconds < 1 || seconds > 3600) {
            throw new IllegalArgumentException("seconds must be 1..3600");
        }
        SlowReports.Status status = this.slowReports.start(seconds);
        return ResponseEntity.accepted().location(URI.create("/reports/" + status.queryId())).body(status);
    }

    @GetMapping(REPORT)
    SlowReports.Status slowStatus(@PathVariable String id) {
        String queryId = id.toLowerCase(Locale.ROOT);
        return found(queryId, this.slowReports.status(queryId));
    }

    @DeleteMapping(REPORT)
    SlowReports.Status cancelSlow(@PathVariable String id) {
        String queryId = id.toLowerCase(Locale.ROOT);
        return found(queryId, this.slowReports.cancel(queryId));
    }

    private static SlowReports.Status found(String id, SlowReports.Status status) {
        if (status == null) {
            throw new ReportNotFoundException("no report " + id + " on this instance (it keeps its most recent reports)");
        }
        return status;
    }

    /** No report has the id; answered with 404 Not Found. */
    static final class ReportNotFoundException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /**
         * @param message which report
         */
        ReportNotFoundException(String message) {
            super(message);
        }
    }
}
