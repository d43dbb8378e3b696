/**
 * Blocks and their column views: {@link dev.clickhousetcp.data.Block} (named columns of equal row
 * count, valid for the block's {@link dev.clickhousetcp.data.Lifetime}) and one
 * {@link dev.clickhousetcp.data.Column} class per ClickHouse type family, each a view over the bytes as
 * they came off the wire (fixed-width values read in place, strings as one byte array and end
 * offsets, composites over their nested columns), with typed accessors that neither copy nor box
 * ({@code getLong}, {@code getDouble}, bulk {@code copyTo}) and {@code getObject}/{@code getString}
 * for the general case (the text is what the server's {@code toString} prints). Also the pooled
 * buffers the views live in ({@link dev.clickhousetcp.data.BufferPool}), the server's time-zone
 * rules ({@link dev.clickhousetcp.data.ClickHouseZoneRules}) and the text and JSON forms of values.
 *
 * <p>Public API. Uses {@code types}: a column names its {@link dev.clickhousetcp.types.DataType}, and
 * a type builds its column when a block is read, so the two packages depend on each other. Does not
 * use {@code io}, {@code protocol} or {@code client}.
 */
package dev.clickhousetcp.data;
