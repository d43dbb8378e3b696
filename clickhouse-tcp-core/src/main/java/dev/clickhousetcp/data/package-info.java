/**
 * The type system: ClickHouse's data types and the blocks and column views they read into, one home per
 * type family.
 *
 * <p>The type-name parser ({@link dev.clickhousetcp.data.TypeNode}, bounded by
 * {@link dev.clickhousetcp.data.DecodeLimits}) and {@link dev.clickhousetcp.data.DataTypes}, the one place
 * that maps a name to its family. Each family then keeps its pieces side by side in this package: its
 * {@link dev.clickhousetcp.data.DataType} (parameters, name, the reader of its Native serialization with the
 * typed {@link dev.clickhousetcp.data.DeserializationState} its stream prefix gives, the writer of Java values
 * or columns for inserts through {@link dev.clickhousetcp.data.ColumnWriter}, its per-family facts) and its
 * {@link dev.clickhousetcp.data.Column} view (for example {@code NumberType} and
 * {@link dev.clickhousetcp.data.Int64Column}, {@code ArrayType} and {@link dev.clickhousetcp.data.ArrayColumn}),
 * per ClickHouse {@code src/DataTypes/Serializations/}. A column view reads over the bytes as they came off
 * the wire (fixed-width values read in place, strings as one byte array and end offsets, composites over
 * their nested columns), with typed accessors that neither copy nor box ({@code getLong},
 * {@code getDouble}, bulk {@code copyTo}) and {@code getObject}/{@code getString} for the general case (the
 * text is what the server's {@code toString} prints).
 *
 * <p>Beside the families: {@link dev.clickhousetcp.data.Block} (named columns of equal row count, valid for
 * the block's {@link dev.clickhousetcp.data.Lifetime}), the per-block
 * {@link dev.clickhousetcp.data.ReadContext} (pooled buffers and the reads that fill them, limits, the
 * expansion budget), the pooled buffers the views live in ({@link dev.clickhousetcp.data.BufferPool}), the
 * server's time-zone rules ({@link dev.clickhousetcp.data.ClickHouseZoneRules}), the text and JSON forms of
 * values, aggregate-function state layouts and the RowBinary value forms (inside Dynamic, JSON and
 * aggregate states).
 *
 * <p>Public API. Uses {@code io} (the readers and writers of the wire) and, of {@code protocol}, only the
 * feature gates (a Decimal's text depends on the server's revision); not {@code client} or
 * {@code mapping}.
 */
package dev.clickhousetcp.data;
