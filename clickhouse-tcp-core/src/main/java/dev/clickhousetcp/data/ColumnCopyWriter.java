package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ColumnWriter} that re-sends whole {@link Column}s read earlier, in their native layout,
 * without converting values: fixed-width data goes out as one bulk copy of its bytes, strings as
 * their stored bytes, Nullable as its null map plus nested data, Array and Map with their stored
 * offsets, LowCardinality with its dictionary and keys, Tuple element by element.
 *
 * <p>The source column's type must have the same name as this writer's type
 * ({@link #canCopy(DataType, Column)}); several columns appended before one block is sent are
 * concatenated (array offsets and dictionary keys are rebased). Columns are referenced, not
 * copied: they must stay valid (a detached {@code Column.copy()}, or a block not yet released) until
 * the block is sent. Not thread-safe.
 */
public final class ColumnCopyWriter implements ColumnWriter {
    private final DataType type;
    private final List<Column> chunks = new ArrayList<>();
    private int count;

    /**
     * A writer for columns of exactly {@code type}.
     *
     * @param type the column type; appended columns must have a type of the same name
     */
    public ColumnCopyWriter(DataType type) {
        this.type = type;
    }

    /**
     * Whether {@code source} can be re-sent as a column of {@code target} by this writer: the type
     * names are equal and every nested column has a layout this writer encodes.
     *
     * @param target the type of the column to be sent
     * @param source a column read earlier
     * @return {@code true} when {@link #appendColumn} would accept {@code source} for a writer of {@code target}
     */
    public static boolean canCopy(DataType target, Column source) {
        return source.type().name().equals(target.name()) && encodable(source);
    }

    private static boolean encodable(Column c) {
        if (c instanceof FixedWidthColumn || c instanceof StringColumn) {
            return true;
        }
        if (c instanceof NullableColumn n) {
            return encodable(n.nested());
        }
        if (c instanceof ArrayColumn a) {
            return encodable(a.elements());
        }
        if (c instanceof MapColumn m) {
            return encodable(m.keys()) && encodable(m.values());
        }
        if (c instanceof TupleColumn t) {
            for (int i = 0; i < t.elementCount(); i++) {
                if (!encodable(t.element(i))) {
                    return false;
                }
            }
            return true;
        }
        if (c instanceof LowCardinalityColumn l) {
            return encodable(l.dictionary());
        }
        return false;
    }

    @Override
    public DataType type() {
        return type;
    }

    /** Not supported: this writer takes whole columns ({@link #appendColumn}). */
    @Override
    public void append(Object value) {
        throw new ClickHouseTypeException("a column copy writer for " + type.name()
                + " takes whole columns (appendColumn), not single values");
    }

    /** Not supported: this writer takes whole columns ({@link #appendColumn}). */
    @Override
    public void appendDefault() {
        append(null);
    }

    /**
     * Appends all rows of {@code column} by reference.
     *
     * @throws ClickHouseTypeException when the column's type differs from this writer's or its layout
     *                                 is not one this writer encodes
     */
    @Override
    public void appendColumn(Column column) {
        if (!canCopy(type, column)) {
            throw new ClickHouseTypeException("cannot re-send a column of type " + column.type().name() + " ("
                    + column.getClass().getSimpleName() + ") as " + type.name());
        }
        chunks.add(column);
        count += column.size();
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public void writeData(BinaryWriter out) throws IOException {
        encode(out, chunks);
    }

    @Override
    public void reset() {
        chunks.clear();
        count = 0;
    }

    /** Writes the data of {@code cols} (same type) as one column of their concatenated rows. */
    static void encode(BinaryWriter out, List<Column> cols) throws IOException {
        if (cols.isEmpty()) {
            return;
        }
        Column first = cols.get(0);
        if (first instanceof FixedWidthColumn) {
            for (Column c : cols) {
                FixedWidthColumn f = (FixedWidthColumn) c;
                out.writeBytes(f.rawBytes(), 0, f.size() * f.width());
            }
        } else if (first instanceof StringColumn) {
            for (Column c : cols) {
                StringColumn s = (StringColumn) c;
                byte[] data = s.rawData();
                int n = s.size();
                int start = 0;
                for (int i = 0; i < n; i++) {
                    int len = s.length(i);
                    out.writeStringBytes(data, start, len);
                    start += len;
                }
            }
        } else if (first instanceof NullableColumn) {
            List<Column> nested = new ArrayList<>(cols.size());
            for (Column c : cols) {
                NullableColumn nc = (NullableColumn) c;
                out.writeBytes(nc.nullMap(), 0, nc.size());
                nested.add(nc.nested());
            }
            encode(out, nested);
        } else if (first instanceof ArrayColumn) {
            List<Column> elements = new ArrayList<>(cols.size());
            long base = 0;
            for (Column c : cols) {
                ArrayColumn a = (ArrayColumn) c;
                int n = a.size();
                int end = 0;
                for (int i = 0; i < n; i++) {
                    end = a.start(i) + a.length(i);
                    out.writeInt64(base + end);
                }
                base += end;
                elements.add(trimmed(a.elements(), end));
            }
            encode(out, elements);
        } else if (first instanceof MapColumn) {
            List<Column> keys = new ArrayList<>(cols.size());
            List<Column> values = new ArrayList<>(cols.size());
            long base = 0;
            for (Column c : cols) {
                MapColumn m = (MapColumn) c;
                int n = m.size();
                int end = 0;
                for (int i = 0; i < n; i++) {
                    end = m.start(i) + m.length(i);
                    out.writeInt64(base + end);
                }
                base += end;
                keys.add(trimmed(m.keys(), end));
                values.add(trimmed(m.values(), end));
            }
            encode(out, keys);
            encode(out, values);
        } else if (first instanceof TupleColumn t0) {
            for (int e = 0; e < t0.elementCount(); e++) {
                List<Column> el = new ArrayList<>(cols.size());
                for (Column c : cols) {
                    el.add(((TupleColumn) c).element(e));
                }
                encode(out, el);
            }
        } else if (first instanceof LowCardinalityColumn) {
            encodeLowCardinality(out, cols);
        } else {
            throw new ClickHouseTypeException("cannot encode a column of class " + first.getClass().getName());
        }
    }

    /** Elements beyond {@code used} (possible in a column gathered from a larger one) are cut off. */
    private static Column trimmed(Column c, int used) {
        if (c.size() == used) {
            return c;
        }
        int[] idx = new int[used];
        for (int i = 0; i < used; i++) {
            idx[i] = i;
        }
        return c.gather(idx);
    }

    private static void encodeLowCardinality(BinaryWriter out, List<Column> cols) throws IOException {
        LowCardinalityColumn l0 = (LowCardinalityColumn) cols.get(0);
        boolean nullable = l0.type().isNullable();
        long dictSize = 0;
        int rows = 0;
        List<Column> dicts = new ArrayList<>(cols.size());
        for (Column c : cols) {
            LowCardinalityColumn l = (LowCardinalityColumn) c;
            dicts.add(l.dictionary());
            dictSize += l.dictionary().size();
            rows += l.size();
        }
        if (rows == 0) {
            return;
        }
        int keyType = dictSize <= 0x100 ? 0 : dictSize <= 0x10000 ? 1 : 2;
        out.writeInt64(keyType | LowCardinalityType.HAS_ADDITIONAL_KEYS);
        out.writeInt64(dictSize);
        encode(out, dicts);
        out.writeInt64(rows);
        int base = 0;
        for (Column c : cols) {
            LowCardinalityColumn l = (LowCardinalityColumn) c;
            int n = l.size();
            for (int i = 0; i < n; i++) {
                int k = l.key(i);
                // key 0 of LowCardinality(Nullable) is NULL in every chunk; other keys move by the chunk's base
                int key = nullable && k == 0 ? 0 : base + k;
                switch (keyType) {
                    case 0 -> out.writeUInt8(key);
                    case 1 -> out.writeInt16(key);
                    default -> out.writeInt32(key);
                }
            }
            base += l.dictionary().size();
        }
    }
}
