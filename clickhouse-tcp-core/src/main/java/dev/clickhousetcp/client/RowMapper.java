package dev.clickhousetcp.client;

/**
 * Maps the current row to an object, like Spring's {@code RowMapper}.
 *
 * @param <T> the mapped type
 */
@FunctionalInterface
public interface RowMapper<T> {
    /**
     * @param row    the row cursor, valid only during this call
     * @param rowNum 0-based row number across the whole result
     */
    T mapRow(Row row, long rowNum);
}
