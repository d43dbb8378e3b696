package dev.clickhousetcp.client;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Map;

/**
 * The time zone the server reads and prints the values of DateTime, DateTime64 (and turns instants
 * into Date) types without an explicit zone in, for each query of one connection: ClickHouse's
 * {@code session_timezone} setting when it is set, else the server's own zone.
 *
 * <p>What the server announces (ClickHouse 26.7, {@code src/Server/TCPHandler.cpp}, checked against
 * a real server): the server Hello carries the server's zone, once per connection. A
 * {@code TimezoneUpdate} packet carries the query's {@code session_timezone} (empty when unset) only for
 * a query that reads the {@code input()} table function, and only after that query's input header
 * block. No other query gets one: not a SELECT or INSERT sent with the setting, not one whose
 * {@code SETTINGS} clause sets it, not a {@code SET session_timezone} statement nor the queries after
 * it, and no header block is preceded by one. So the client works the zone out itself before the
 * response arrives, as ClickHouse's own client does ({@code src/Client/ClientBase.cpp} applies SET
 * statements and a query's SETTINGS clause to its own context and takes a TimezoneUpdate as
 * {@code session_timezone}). For each query, the first of:
 * <ol>
 *   <li>the last {@code session_timezone} assignment in a top-level {@code SETTINGS} clause of the
 *       statement (the server applies it after the query packet's settings);</li>
 *   <li>{@code session_timezone} sent with the query: the query's setting, else the client's
 *       default setting;</li>
 *   <li>the session's value: set by the last successful {@code SET session_timezone} statement on
 *       this connection ({@code DEFAULT} unsets it), or learned from a TimezoneUpdate of a query that
 *       did not set the zone itself;</li>
 *   <li>the server's zone from its Hello.</li>
 * </ol>
 * An empty value stops the search at the server's zone, as on the server (a query's empty setting
 * overrides a session's {@code SET}). A TimezoneUpdate replaces the zone for the rest of its query.
 * Only the session's value outlives a query; the others never reach the connection's next query.
 * A {@code session_timezone} in the user's settings profile is not visible to the client: set it as a
 * client setting too.
 *
 * <p>Single-threaded, like the connection.
 */
final class SessionTimeZone {
    static final String SETTING = "session_timezone";
    private static final Logger LOG = LoggerFactory.getLogger(SessionTimeZone.class);

    private final ZoneId serverZone;
    /** The session's own session_timezone (SET statements, TimezoneUpdate), or null when unset. */
    private String sessionValue;
    /** The running statement is a SET of the zone; {@link #setValue} applies when it succeeds. */
    private boolean runningSet;
    private String setValue;
    /** The running query sets the zone itself (packet setting or SETTINGS clause). */
    private boolean queryOwnsZone;
    private ZoneId current;

    SessionTimeZone(ZoneId serverZone) {
        this.serverZone = serverZone;
        this.current = serverZone;
    }

    /**
     * Starts a query: works out its zone from its text and the settings sent with it.
     *
     * @return the query's zone
     */
    ZoneId begin(String sql, Map<String, String> settings) {
        SqlSettings.Assignment set = SqlSettings.set(sql, SETTING);
        runningSet = set != null;
        setValue = set == null ? null : set.value();
        String value = runningSet ? null : SqlSettings.clause(sql, SETTING);
        if (value == null) {
            value = settings.get(SETTING);
        }
        queryOwnsZone = value != null;
        if (value == null) {
            value = sessionValue;
        }
        current = zoneOf(value);
        return current;
    }

    /** A TimezoneUpdate from the server: the running query's session_timezone (empty: none). */
    void update(String timezone) {
        current = zoneOf(timezone);
        if (!queryOwnsZone) {
            sessionValue = timezone.isEmpty() ? null : timezone;
        }
    }

    /** The running query ended with EndOfStream: a SET of the zone took effect. */
    void ended() {
        if (runningSet) {
            sessionValue = setValue == null || setValue.isEmpty() ? null : setValue;
            runningSet = false;
        }
    }

    /** The zone of the running (or last) query. */
    ZoneId current() {
        return current;
    }

    private ZoneId zoneOf(String name) {
        if (name == null || name.isEmpty()) {
            return serverZone;
        }
        try {
            return dev.clickhousetcp.data.ClickHouseZoneRules.zoneId(name);
        } catch (DateTimeException e) {
            LOG.warn("session_timezone '{}' is not a time zone this JVM knows; DateTime values without an "
                    + "explicit zone are shown in the server's zone {}", name, serverZone);
            return serverZone;
        }
    }
}
