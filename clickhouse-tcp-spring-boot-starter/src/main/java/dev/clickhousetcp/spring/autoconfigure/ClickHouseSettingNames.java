package dev.clickhousetcp.spring.autoconfigure;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;

/**
 * The ClickHouse setting names of the {@code clickhouse.tcp.settings} entries.
 *
 * <p>Spring binds a map key from the elements of the property's name below the map, joined with dots: the
 * environment variable {@code CLICKHOUSE_TCP_SETTINGS_MAX_THREADS} is the property
 * {@code clickhouse.tcp.settings.max.threads} (relaxed binding splits a variable's name at each underscore),
 * bound as the key {@code max.threads}. A ClickHouse setting name never holds a dot (ClickHouse declares
 * its settings as C++ identifiers in src/Core/Settings.cpp, and {@code SET} reads a name as an identifier), so here the
 * elements are joined with underscores instead: {@code max_threads}. An element written in brackets
 * ({@code clickhouse.tcp.settings[max_threads]}) is kept exactly as written, dots and case included.
 *
 * <p>Which keys came from which form is read from the property sources' names; a key no iterable source
 * names (a non-enumerable source) has its dots turned into underscores. Stateless.
 */
final class ClickHouseSettingNames {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("clickhouse.tcp.settings");

    private ClickHouseSettingNames() {
    }

    /**
     * The bound settings under their ClickHouse names.
     * @param bound the map as Spring bound it, key to value, in order
     * @param sources the configuration property sources it was bound from, highest precedence first
     * @return setting name to value, in the same order; on two keys with the same name the later wins
     */
    static Map<String, String> of(Map<String, String> bound, Iterable<ConfigurationPropertySource> sources) {
        Map<String, String> names = new HashMap<>();
        for (ConfigurationPropertySource source : sources) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.stream()
                    .filter(ROOT::isAncestorOf)
                    .forEach((name) -> names.putIfAbsent(boundKey(name), settingName(name)));
            }
        }
        Map<String, String> settings = new LinkedHashMap<>();
        bound.forEach((key, value) -> settings.put(names.getOrDefault(key, key.replace('.', '_')), value));
        return settings;
    }

    /** The map key Spring binds {@code name} to: its elements below the map, joined with dots. */
    private static String boundKey(ConfigurationPropertyName name) {
        StringBuilder key = new StringBuilder();
        for (int i = ROOT.getNumberOfElements(); i < name.getNumberOfElements(); i++) {
            key.append((key.length() > 0) ? "." : "").append(name.getElement(i, Form.ORIGINAL));
        }
        return key.toString();
    }

    /**
     * The setting's name: the elements below the map joined with underscores (an element in brackets is one
     * element, its text as written).
     */
    private static String settingName(ConfigurationPropertyName name) {
        StringBuilder setting = new StringBuilder();
        for (int i = ROOT.getNumberOfElements(); i < name.getNumberOfElements(); i++) {
            setting.append((setting.length() > 0) ? "_" : "").append(name.getElement(i, Form.ORIGINAL));
        }
        return setting.toString();
    }

}
