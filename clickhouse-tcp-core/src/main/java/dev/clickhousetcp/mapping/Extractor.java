package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;

/**
 * One compiled per-column loop: converts rows {@code [0, n)} of a column into a lane array (a
 * {@code long[]} for a {@code long} target, an {@code Object[]} for a reference target, ...). Built
 * once per plan for one (ClickHouse type, Java target type) pair; stateless and thread-safe, so a
 * cached plan serves concurrent queries.
 */
abstract class Extractor {
    final Lane lane;

    Extractor(Lane lane) {
        this.lane = lane;
    }

    /**
     * Fills {@code out[0, n)} from rows {@code [0, n)} of {@code c}. Rows with {@code skip != null &&
     * skip[i] != 0} (NULL rows of an enclosing Nullable) are not converted; an {@code Object[]} lane
     * gets {@code null} there.
     *
     * @throws MappingException for a value that cannot be converted, naming the row
     */
    abstract void extract(Column c, int n, Object out, byte[] skip);

    static boolean skipped(byte[] skip, int i) {
        return skip != null && skip[i] != 0;
    }
}
