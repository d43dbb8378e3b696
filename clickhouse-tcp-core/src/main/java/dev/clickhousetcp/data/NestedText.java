package dev.clickhousetcp.data;

/**
 * A column whose nested text form depends on the row, not only on the column type: Variant and
 * Dynamic quote a row when its active type is a quoted one, JSON always quotes its object text.
 */
interface NestedText {

    /** Appends row {@code row} as it appears inside an Array/Tuple/Map text form ({@code NULL} for NULL). */
    void appendNested(StringBuilder sb, int row);
}
