package dev.clickhousetcp.mapping;

import java.util.Objects;

/**
 * Settings of the object mappers and the {@code Object[]} row tier of one client: the
 * {@link AccessMode}, what to do with result columns no property matches, and how a UInt64 value
 * is boxed. Immutable and thread-safe.
 *
 * <p><b>UInt64 as {@code long}.</b> By default a UInt64 value read as an object ({@code queryRows},
 * {@code forEachRow}, {@code streamRows}, {@code Row.getObject}, {@code Row.toArray}) is an exact
 * {@link java.math.BigInteger}: one {@code BigInteger} (and its magnitude array) per value. With
 * {@code uint64AsLong} it is a {@link Long} holding the same 64 bits, read as two's complement: values
 * up to {@link Long#MAX_VALUE} are unchanged, values above it come out negative
 * ({@code 18446744073709551615} is {@code -1L}); {@link Long#toUnsignedString(long)},
 * {@link Long#compareUnsigned(long, long)} and {@link Long#divideUnsigned(long, long)} treat them as the
 * unsigned numbers they are. It applies to UInt64 and Nullable(UInt64) result columns; UInt64 values
 * inside Array, Map, Tuple, Variant, Dynamic or JSON columns stay {@code BigInteger}. Typed reads
 * ({@code Column.getLong}, {@code Row.getLong}: the raw bits) and the properties of mapped classes
 * (converted to the property's own type) are not affected.
 *
 * @param accessMode      how properties are reached (default {@link AccessMode#AUTO})
 * @param unmappedColumns read side: result columns without a property (default {@link UnmappedColumns#IGNORE})
 * @param uint64AsLong    whether the row tier boxes UInt64 as {@code Long} (raw bits, two's
 *                        complement above {@link Long#MAX_VALUE}) instead of {@code BigInteger}
 *                        (default {@code false}: exact)
 */
public record MappingConfig(AccessMode accessMode, UnmappedColumns unmappedColumns, boolean uint64AsLong) {
    /** {@link AccessMode#AUTO}, {@link UnmappedColumns#IGNORE}, UInt64 as exact {@code BigInteger}. */
    public static final MappingConfig DEFAULT = new MappingConfig(AccessMode.AUTO, UnmappedColumns.IGNORE, false);

    /**
     * Checks that both settings are given.
     *
     * @param accessMode      how properties are reached
     * @param unmappedColumns read side: what to do with result columns without a property
     * @param uint64AsLong    whether the row tier boxes UInt64 as {@code Long} (raw bits)
     * @throws NullPointerException when {@code accessMode} or {@code unmappedColumns} is {@code null}
     */
    public MappingConfig {
        Objects.requireNonNull(accessMode, "accessMode");
        Objects.requireNonNull(unmappedColumns, "unmappedColumns");
    }

    /**
     * A config with UInt64 boxed as exact {@code BigInteger} (the default).
     *
     * @param accessMode      how properties are reached
     * @param unmappedColumns read side: what to do with result columns without a property
     * @throws NullPointerException when either is {@code null}
     */
    public MappingConfig(AccessMode accessMode, UnmappedColumns unmappedColumns) {
        this(accessMode, unmappedColumns, false);
    }

    /**
     * A copy with another access mode.
     *
     * @param mode how properties are reached, not {@code null}
     * @return a new config with {@code mode} and this config's other settings
     */
    public MappingConfig withAccessMode(AccessMode mode) {
        return new MappingConfig(mode, unmappedColumns, uint64AsLong);
    }

    /**
     * A copy with another policy for unmapped result columns.
     *
     * @param policy what to do with result columns no property matches, not {@code null}
     * @return a new config with {@code policy} and this config's other settings
     */
    public MappingConfig withUnmappedColumns(UnmappedColumns policy) {
        return new MappingConfig(accessMode, policy, uint64AsLong);
    }

    /**
     * A copy with another boxing of UInt64 values in the row tier (see the class description).
     *
     * @param asLong {@code true}: {@code Long} with the raw 64 bits (two's complement above
     *               {@link Long#MAX_VALUE}); {@code false}: exact {@code BigInteger}
     * @return a new config with {@code asLong} and this config's other settings
     */
    public MappingConfig withUint64AsLong(boolean asLong) {
        return new MappingConfig(accessMode, unmappedColumns, asLong);
    }
}
