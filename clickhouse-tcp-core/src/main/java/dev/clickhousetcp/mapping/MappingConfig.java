package dev.clickhousetcp.mapping;

import java.util.Objects;

/**
 * Settings of the object mappers of one client: the {@link AccessMode} and what to do with result
 * columns no property matches. Immutable and thread-safe.
 *
 * @param accessMode      how properties are reached (default {@link AccessMode#AUTO})
 * @param unmappedColumns read side: result columns without a property (default {@link UnmappedColumns#IGNORE})
 */
public record MappingConfig(AccessMode accessMode, UnmappedColumns unmappedColumns) {
    /** {@link AccessMode#AUTO}, {@link UnmappedColumns#IGNORE}. */
    public static final MappingConfig DEFAULT = new MappingConfig(AccessMode.AUTO, UnmappedColumns.IGNORE);

    /**
     * Checks that both settings are given.
     *
     * @param accessMode      how properties are reached
     * @param unmappedColumns read side: what to do with result columns without a property
     * @throws NullPointerException when either is {@code null}
     */
    public MappingConfig {
        Objects.requireNonNull(accessMode, "accessMode");
        Objects.requireNonNull(unmappedColumns, "unmappedColumns");
    }

    /**
     * A copy with another access mode.
     *
     * @param mode how properties are reached, not {@code null}
     * @return a new config with {@code mode} and this config's unmapped-columns policy
     */
    public MappingConfig withAccessMode(AccessMode mode) {
        return new MappingConfig(mode, unmappedColumns);
    }

    /**
     * A copy with another policy for unmapped result columns.
     *
     * @param policy what to do with result columns no property matches, not {@code null}
     * @return a new config with {@code policy} and this config's access mode
     */
    public MappingConfig withUnmappedColumns(UnmappedColumns policy) {
        return new MappingConfig(accessMode, policy);
    }
}
