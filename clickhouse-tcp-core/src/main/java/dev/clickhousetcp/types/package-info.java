/**
 * ClickHouse's data types: the type-name parser ({@link dev.clickhousetcp.types.TypeNode}, bounded by
 * {@link dev.clickhousetcp.types.DecodeLimits}), the one place that maps a name to its family
 * ({@link dev.clickhousetcp.types.DataTypes}), and one {@link dev.clickhousetcp.types.DataType} per
 * family that reads its Native serialization into a column view (with the per-block
 * {@link dev.clickhousetcp.types.ReadContext}: pooled buffers and the reads that fill them, limits, the
 * expansion budget; and the per-column {@link dev.clickhousetcp.types.DeserializationState} its prefix
 * gives) and writes Java values or columns for inserts ({@link dev.clickhousetcp.types.ColumnWriter}),
 * per ClickHouse {@code src/DataTypes/Serializations/}. Aggregate-function state layouts and
 * RowBinary value forms (inside Dynamic, JSON and aggregate states) live here too.
 *
 * <p>Public API. Uses {@code data} (the columns it builds) and {@code io} (the readers and writers of
 * the wire); of {@code protocol} only the feature gates (a Decimal's text depends on the server's
 * revision); not {@code client} or {@code mapping}.
 */
package dev.clickhousetcp.types;
