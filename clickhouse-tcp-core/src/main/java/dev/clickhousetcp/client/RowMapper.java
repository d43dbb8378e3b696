package dev.clickhousetcp.client;

/**
 * Maps the current row to an object, like Spring's {@code RowMapper}.
 *
 * @param <T> the mapped type
 */
@FunctionalInterface
public interface RowMapper<T> {
    /**
     * Maps the row {@code row} points at.
     *
     * @param row    the row cursor, valid only during this call
     * @param rowNum 0-based row number across the whole result
     * @return the mapped object ({@code null} allowed: it is added to the result list as is)
     */
    T mapRow(Row row, long rowNum);
}
