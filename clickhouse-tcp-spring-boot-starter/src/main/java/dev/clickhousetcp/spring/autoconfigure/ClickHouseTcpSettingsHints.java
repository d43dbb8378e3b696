package dev.clickhousetcp.spring.autoconfigure;

import java.util.Map;
import java.util.regex.Pattern;

import dev.clickhousetcp.ClickHouseServerException;
import org.jspecify.annotations.Nullable;

/**
 * Explains a server error about a setting that comes from the client's own settings
 * ({@code clickhouse.tcp.settings} or the query of {@code clickhouse.tcp.url}) rather than from the
 * failing call: with such a setting every statement fails the same way, and the fix is in the
 * configuration. For exception translation, which can append the hint to its message.
 *
 * <p>Stateless and thread-safe.
 */
public final class ClickHouseTcpSettingsHints {

    /** ClickHouse's UNKNOWN_SETTING. */
    public static final int UNKNOWN_SETTING = ClickHouseTcpSettingsValidator.UNKNOWN_SETTING;

    private ClickHouseTcpSettingsHints() {
    }

    /**
     * A hint for an unknown setting (server code 115) that is one of the client's settings.
     * @param failure the failure, or an exception caused by it
     * @param clientSettings the client's settings ({@code client.config().settings()})
     * @return a sentence naming the setting and where it is configured, or {@code null} when the failure
     * is not about one of the client's settings
     */
    public static @Nullable String unknownSetting(Throwable failure, Map<String, String> clientSettings) {
        for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
            if (t instanceof ClickHouseServerException server && server.code() == UNKNOWN_SETTING) {
                String message = String.valueOf(server.serverMessage());
                for (String name : clientSettings.keySet()) {
                    if (Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(name) + "(?![A-Za-z0-9_])")
                        .matcher(message)
                        .find()) {
                        return "The unknown setting '" + name + "' is one of the client's settings, sent with every "
                                + "query: it comes from clickhouse.tcp.settings." + name
                                + " (or the query of clickhouse.tcp.url, or a ClickHouseTcpClientBuilderCustomizer). "
                                + "Correct or remove it there; clickhouse.tcp.validate-settings-on-startup=true "
                                + "reports such names when the application starts.";
                    }
                }
                return null;
            }
        }
        return null;
    }

}
