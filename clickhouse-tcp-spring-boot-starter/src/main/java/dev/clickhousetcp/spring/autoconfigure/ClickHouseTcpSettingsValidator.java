package dev.clickhousetcp.spring.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.client.ClickHouseConnection;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ConnectionConfig;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails.Node;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Checks the configured ClickHouse settings against the server when the application starts
 * ({@code clickhouse.tcp.validate-settings-on-startup}).
 *
 * <p>On a connection of its own, opened like the client's but without the client's settings (an
 * unknown one would fail every statement on it): first one {@code SELECT 1} with all the settings; only
 * if the server rejects it, one {@code SELECT 1} per setting to find which, and the names in
 * {@code system.settings} to suggest close matches. A setting the server does not know (code 115) or
 * whose value it rejects fails startup with a {@link ClickHouseTcpConfigurationException} naming the
 * property. A server that cannot be reached or refuses the credentials is left to the first query: the
 * check is skipped with a log line.
 */
final class ClickHouseTcpSettingsValidator {

    private static final Log logger = LogFactory.getLog(ClickHouseTcpSettingsValidator.class);

    /** ClickHouse's UNKNOWN_SETTING. */
    static final int UNKNOWN_SETTING = 115;

    private final ConnectionConfig base;

    private final List<Node> nodes;

    private final QueryOptions options;

    private @Nullable ClickHouseConnection connection;

    private ClickHouseTcpSettingsValidator(ConnectionConfig base, List<Node> nodes, Duration timeout) {
        this.base = base;
        this.nodes = nodes;
        this.options = QueryOptions.builder().timeout(timeout).build();
    }

    /**
     * Checks {@code settings} on one of {@code nodes}.
     * @param client the client (its connection options, without its settings, open the check's connection)
     * @param nodes the servers, tried in order until one answers
     * @param settings the settings to check, in order
     * @param sources for each setting, the property it comes from
     * @throws ClickHouseTcpConfigurationException when the server rejects a setting
     */
    static void validate(ClickHouseTcpClient client, List<Node> nodes, Map<String, String> settings,
            Map<String, String> sources) {
        if (settings.isEmpty()) {
            return;
        }
        ConnectionConfig config = client.config();
        Duration timeout = config.handshakeTimeout().plus(config.socketTimeout().compareTo(Duration.ofSeconds(30)) < 0
                ? config.socketTimeout() : Duration.ofSeconds(30));
        ClickHouseTcpSettingsValidator validator = new ClickHouseTcpSettingsValidator(
                config.toBuilder().clearSettings().build(), nodes, timeout);
        try {
            validator.check(settings, sources);
        }
        finally {
            validator.close();
        }
    }

    private void check(Map<String, String> settings, Map<String, String> sources) {
        ClickHouseServerException all;
        try {
            all = trySettings(settings);
        }
        catch (ClickHouseAuthenticationException ex) {
            logger.warn("Could not check clickhouse.tcp.settings at startup: the server refused the credentials ("
                    + ex.getMessage() + ")");
            return;
        }
        catch (ClickHouseException ex) {
            logger.info("Could not check clickhouse.tcp.settings at startup (" + ex.getMessage()
                    + "); the server checks them at the first query");
            return;
        }
        if (all == null) {
            logger.debug("The server accepts clickhouse.tcp.settings " + settings.keySet());
            return;
        }
        Map<String, ClickHouseServerException> rejected = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, String> setting : settings.entrySet()) {
                ClickHouseServerException ex = trySettings(Map.of(setting.getKey(), setting.getValue()));
                if (ex != null) {
                    rejected.put(setting.getKey(), ex);
                }
            }
        }
        catch (ClickHouseException ex) {
            logger.debug("Checking the settings one by one failed", ex);
        }
        Set<String> known = (rejected.values().stream().anyMatch((ex) -> ex.code() == UNKNOWN_SETTING))
                ? settingNames() : Set.of();
        throw new ClickHouseTcpConfigurationException(describe(settings, sources, rejected, known, all),
                "Correct or remove these entries (names are ClickHouse setting names as in system.settings), or set "
                        + "clickhouse.tcp.validate-settings-on-startup=false to leave the check to the server at "
                        + "each query.");
    }

    private static String describe(Map<String, String> settings, Map<String, String> sources,
            Map<String, ClickHouseServerException> rejected, Set<String> known, ClickHouseServerException all) {
        StringBuilder description = new StringBuilder("The ClickHouse server rejects configured settings:");
        if (rejected.isEmpty()) {
            description.append(String.format("%n    %s together: %s", settings.keySet(), all.serverMessage()));
        }
        rejected.forEach((name, ex) -> {
            String source = sources.getOrDefault(name, "clickhouse.tcp.settings." + name);
            description.append(String.format("%n    %s: ", source));
            if (ex.code() == UNKNOWN_SETTING) {
                description.append("unknown setting '").append(name).append("'");
                List<String> matches = closeMatches(name, known);
                if (!matches.isEmpty()) {
                    description.append(" (did you mean ")
                        .append(String.join(" or ", matches.stream().map((m) -> "'" + m + "'").toList()))
                        .append("?)");
                }
            }
            else {
                description.append("the server rejects ")
                    .append(name)
                    .append("=")
                    .append(settings.get(name))
                    .append(" (code ")
                    .append(ex.code())
                    .append("): ")
                    .append(firstLine(ex.serverMessage()));
            }
        });
        return description.toString();
    }

    /** Runs {@code SELECT 1} with the settings; returns the server's error, or {@code null} if it accepts them. */
    private @Nullable ClickHouseServerException trySettings(Map<String, String> settings) {
        ClickHouseConnection connection = connection();
        try (QueryResult result = connection.query("SELECT 1",
                this.options.toBuilder().settings(settings).build())) {
            result.drain();
            return null;
        }
        catch (ClickHouseServerException ex) {
            if (ex instanceof ClickHouseAuthenticationException) {
                throw ex;
            }
            return ex;
        }
    }

    private Set<String> settingNames() {
        Set<String> names = new TreeSet<>();
        try (QueryResult result = connection().query("SELECT CAST(name AS String) FROM system.settings", this.options)) {
            for (dev.clickhousetcp.data.Block block : result) {
                for (int row = 0; row < block.rowCount(); row++) {
                    names.add(((dev.clickhousetcp.data.StringColumn) block.column(0)).getString(row));
                }
            }
        }
        catch (ClickHouseException | ClassCastException ex) {
            logger.debug("Could not read system.settings for suggestions", ex);
        }
        return names;
    }

    /** An open connection: the current one, or a new one to the first node that answers. */
    private ClickHouseConnection connection() {
        if (this.connection != null && this.connection.isUsable()) {
            return this.connection;
        }
        close();
        ClickHouseException last = null;
        for (Node node : this.nodes) {
            try {
                this.connection = ClickHouseConnection
                    .open(this.base.toBuilder().host(node.host()).port(node.port()).build());
                return this.connection;
            }
            catch (ClickHouseAuthenticationException ex) {
                throw ex;
            }
            catch (ClickHouseException ex) {
                last = ex;
            }
        }
        throw (last != null) ? last : new ClickHouseException("no node to connect to");
    }

    private void close() {
        if (this.connection != null) {
            try {
                this.connection.close();
            }
            catch (RuntimeException ex) {
                logger.debug("Closing the settings check's connection failed", ex);
            }
            this.connection = null;
        }
    }

    /** Known names within a small edit distance of {@code name}, closest first (at most three). */
    static List<String> closeMatches(String name, Set<String> known) {
        String lower = name.toLowerCase(Locale.ROOT);
        int limit = Math.max(2, lower.length() / 4);
        List<Map.Entry<String, Integer>> candidates = new ArrayList<>();
        for (String candidate : known) {
            int distance = distance(lower, candidate.toLowerCase(Locale.ROOT));
            if (distance <= limit) {
                candidates.add(Map.entry(candidate, distance));
            }
        }
        candidates.sort(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey(
                Comparator.naturalOrder())));
        return candidates.stream().limit(3).map(Map.Entry::getKey).toList();
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return (newline < 0) ? message : message.substring(0, newline);
    }

}
