package dev.clickhousetcp.data;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A Block: named columns with the same number of rows, the unit the native protocol moves data in
 * (ClickHouse {@code src/Core/Block.h}; wire layout per {@code NativeFormat.mdx}).
 *
 * <p>A block handed out by a result stream is borrowed: it is valid until the stream advances or is
 * closed, after which its columns throw {@link IllegalStateException}. {@link #copy()} detaches it.
 * Not thread-safe.
 */
public final class Block {
    private final String[] names;
    private final Column[] columns;
    private final int rows;
    private final Lifetime lifetime;

    public Block(String[] names, Column[] columns, int rows, Lifetime lifetime) {
        this.names = names;
        this.columns = columns;
        this.rows = rows;
        this.lifetime = lifetime;
        AbstractColumn.bindAll(lifetime, columns);
    }

    /** Number of rows. */
    public int rowCount() {
        return rows;
    }

    /** Number of columns. */
    public int columnCount() {
        return columns.length;
    }

    /** Column names in order. */
    public List<String> names() {
        return Collections.unmodifiableList(Arrays.asList(names));
    }

    public String name(int index) {
        return names[index];
    }

    /** Column at {@code index} (0-based). */
    public Column column(int index) {
        lifetime.check();
        return columns[index];
    }

    /** Column named {@code name}; throws {@link IllegalArgumentException} when absent. */
    public Column column(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column '" + name + "' in block with columns " + names());
        }
        return column(i);
    }

    /** Index of the column named {@code name}, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the stream has moved past this block. */
    public boolean isReleased() {
        return lifetime.isReleased();
    }

    /** A detached copy whose columns stay valid. */
    public Block copy() {
        lifetime.check();
        Column[] c = new Column[columns.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = columns[i].copy();
        }
        return new Block(names.clone(), c, rows, Lifetime.FOREVER);
    }

    @Override
    public String toString() {
        return "Block[" + rows + " rows, columns=" + Arrays.toString(names) + "]";
    }
}
