package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.observe.QueryMasking;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Forwards the rows of server Log packets (sent when a query sets {@code send_logs_level}) to SLF4J
 * under the logger {@value #LOGGER_NAME}, mapping ClickHouse's Poco priorities (1 fatal .. 8 trace,
 * 9 test) to SLF4J levels. Each message reads {@code [host] {query_id} <source> text}, the text with the secrets
 * of a statement it quotes hidden ({@link #masked(String)}). Rows below the
 * logger's enabled level are skipped without formatting. Stateless and thread-safe.
 */
final class ServerLogForwarder {
    /** The dedicated logger server log lines go to. */
    static final String LOGGER_NAME = "dev.clickhousetcp.server";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER_NAME);

    private ServerLogForwarder() {
    }

    static void forward(Block logs) {
        int priority = logs.indexOf("priority");
        int text = logs.indexOf("text");
        if (priority < 0 || text < 0) {
            return;
        }
        int host = logs.indexOf("host_name");
        int queryId = logs.indexOf("query_id");
        int source = logs.indexOf("source");
        Column p = logs.column(priority);
        for (int row = 0; row < logs.rowCount(); row++) {
            long level = p.getLong(row);
            if (!enabled(level)) {
                continue;
            }
            String msg = "[" + value(logs, host, row) + "] {" + value(logs, queryId, row) + "} <"
                    + value(logs, source, row) + "> " + masked(logs.column(text).getString(row));
            if (level <= 3) {
                LOG.error(msg);
            } else if (level == 4) {
                LOG.warn(msg);
            } else if (level <= 6) {
                LOG.info(msg);
            } else if (level == 7) {
                LOG.debug(msg);
            } else {
                LOG.trace(msg);
            }
        }
    }

    /** {@code executeQuery}'s line: {@code (from host:port) [(comment: ...) ]statement}. */
    private static final Pattern FROM = Pattern.compile("^\\(from [^)]*\\) (?:\\(comment: [^)]*\\) )?");
    private static final String IN_QUERY = "(in query: ";

    /**
     * The log text with the secrets of a statement it quotes hidden ({@link QueryMasking}): servers before
     * those that mask their logs (18.x) write the statement as given, after {@code (from host:port) } and in
     * error lines after {@code (in query: }. Only the statement part is masked, so the quotes of the prose
     * before it ({@code Can't connect to '127.0.0.1'}) cannot shift what the masker reads as literals.
     */
    static String masked(String text) {
        int at = text.indexOf(IN_QUERY);
        if (at >= 0) {
            int from = at + IN_QUERY.length();
            return text.substring(0, from) + QueryMasking.mask(text.substring(from));
        }
        Matcher m = FROM.matcher(text);
        if (m.lookingAt()) {
            return text.substring(0, m.end()) + QueryMasking.mask(text.substring(m.end()));
        }
        return QueryMasking.mask(text);
    }

    private static boolean enabled(long level) {
        if (level <= 3) {
            return LOG.isErrorEnabled();
        }
        if (level == 4) {
            return LOG.isWarnEnabled();
        }
        if (level <= 6) {
            return LOG.isInfoEnabled();
        }
        return level == 7 ? LOG.isDebugEnabled() : LOG.isTraceEnabled();
    }

    private static String value(Block b, int column, int row) {
        return column < 0 ? "" : b.column(column).getString(row);
    }
}
