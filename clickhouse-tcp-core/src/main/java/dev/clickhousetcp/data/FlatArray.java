package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.util.Objects;

/**
 * A whole {@code Array(T)} column in columnar form, for {@code insertColumns}: the elements of every
 * row back to back plus one cumulative end offset per row, the layout ClickHouse itself uses
 * ({@code SerializationArray}: UInt64 end offsets, then the flattened elements). Row {@code i} holds
 * elements {@code [ends[i - 1], ends[i])} ({@code [0, ends[0])} for row 0), so
 * {@code ends.length} is the row count and {@code ends[ends.length - 1]} the element count.
 *
 * <p>{@code values} is anything the element type's writer takes as a whole column: a primitive array
 * ({@code long[]} for {@code Array(UInt64)}, sent without a per-element copy), {@code String[]},
 * an object array or {@code List}, or another {@code FlatArray} for {@code Array(Array(T))}.
 * Neither array is copied up front: leave both unchanged until the insert call returns.
 * Immutable apart from the arrays it refers to.
 *
 * @param values the flattened elements of all rows
 * @param ends   cumulative end offsets, one per row, never decreasing, none negative
 */
public record FlatArray(Object values, int[] ends) {

    /**
     * Checks the offsets; neither array is copied.
     *
     * @param values the flattened elements of all rows, in a form the element type's writer takes
     * @param ends   cumulative end offsets, one per row
     * @throws NullPointerException    if an argument is null
     * @throws ClickHouseTypeException if {@code ends} decreases or holds a negative offset
     */
    public FlatArray {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(ends, "ends");
        int prev = 0;
        for (int i = 0; i < ends.length; i++) {
            if (ends[i] < prev) {
                throw new ClickHouseTypeException("array end offset " + ends[i] + " at row " + i + " is below "
                        + (i == 0 ? "0" : "the previous row's " + prev) + "; offsets must never decrease");
            }
            prev = ends[i];
        }
    }

    /**
     * {@code new FlatArray(values, ends)}.
     *
     * @param values the flattened elements of all rows
     * @param ends   cumulative end offsets, one per row, never decreasing, none negative
     * @return the new flat array
     * @throws NullPointerException    if an argument is null
     * @throws ClickHouseTypeException if {@code ends} decreases or holds a negative offset
     */
    public static FlatArray of(Object values, int[] ends) {
        return new FlatArray(values, ends);
    }

    /**
     * Rows: {@code ends.length}.
     *
     * @return the row count
     */
    public int rows() {
        return ends.length;
    }

    /**
     * Elements over all rows: the last end offset, 0 without rows.
     *
     * @return the element count the rows refer to
     */
    public int elements() {
        return ends.length == 0 ? 0 : ends[ends.length - 1];
    }
}
