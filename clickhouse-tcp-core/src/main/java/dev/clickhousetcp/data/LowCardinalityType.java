package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * LowCardinality(T), per ClickHouse {@code SerializationLowCardinality}: a per-column prefix (UInt64
 * key version = 1, shared dictionaries with additional keys), then per block a UInt64 index-type word
 * (key width in the low byte; bit 8 need-global-dictionary, bit 9 has-additional-keys, bit 10
 * need-update-dictionary), the UInt64 dictionary size and dictionary values (of T without Nullable),
 * then the UInt64 row count and one key per row. For LowCardinality(Nullable(T)) key 0 is NULL.
 */
public final class LowCardinalityType extends DataType {
    static final long KEY_VERSION_SHARED_WITH_ADDITIONAL_KEYS = 1;
    static final long NEED_GLOBAL_DICTIONARY = 1L << 8;
    static final long HAS_ADDITIONAL_KEYS = 1L << 9;
    static final long NEED_UPDATE_DICTIONARY = 1L << 10;

    private final DataType inner;
    private final DataType dictionaryType;
    private final boolean nullable;

    LowCardinalityType(String name, DataType inner) {
        super(name);
        this.inner = inner;
        this.nullable = inner instanceof NullableType;
        this.dictionaryType = inner instanceof NullableType n ? n.nested() : inner;
    }

    /**
     * The declared inner type T.
     *
     * @return T as declared, a {@link NullableType} for {@code LowCardinality(Nullable(...))}
     */
    public DataType inner() {
        return inner;
    }

    @Override
    public boolean isNullable() {
        return nullable;
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        long version = in.readInt64();
        if (version != KEY_VERSION_SHARED_WITH_ADDITIONAL_KEYS) {
            throw new ClickHouseProtocolException("unsupported LowCardinality key version " + version + " for " + name);
        }
        return DeserializationState.NONE; // the one key version accepted; the dictionary has no prefix
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        out.writeInt64(KEY_VERSION_SHARED_WITH_ADDITIONAL_KEYS);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        if (rows == 0) {
            return new LowCardinalityColumn(this, 0, dictionaryType.read(in, 0, ctx, DeserializationState.NONE), new int[0], nullable);
        }
        long indexType = in.readInt64();
        if ((indexType & NEED_GLOBAL_DICTIONARY) != 0 || (indexType & HAS_ADDITIONAL_KEYS) == 0) {
            throw new ClickHouseProtocolException("LowCardinality column " + name
                    + " uses a global dictionary, which the native format does not send (index type " + indexType + ")");
        }
        int keyWidth = 1 << (int) (indexType & 0xFF);
        if (keyWidth > 8) {
            throw new ClickHouseProtocolException("invalid LowCardinality key type " + (indexType & 0xFF));
        }
        int dictSize = boundedCount(in.readInt64(), ctx.limits().maxRowsPerBlock(), "LowCardinality dictionary size");
        Column dictionary = dictionaryType.read(in, dictSize, ctx, DeserializationState.NONE);
        int n = boundedCount(in.readInt64(), ctx.limits().maxRowsPerBlock(), "LowCardinality row count");
        if (n != rows) {
            throw new ClickHouseProtocolException("LowCardinality column " + name + " has " + n + " keys for " + rows
                    + " rows");
        }
        int[] keys = ctx.firstInts(rows); // grows as keys arrive
        int i = 0;
        while (true) {
            int[] a = keys; // a tight loop over a fixed array up to its capacity, then grow it
            int segment = Math.min(rows, a.length);
            for (; i < segment; i++) {
                long k = switch (keyWidth) {
                    case 1 -> in.readUInt8();
                    case 2 -> in.readInt16() & 0xFFFFL;
                    case 4 -> in.readInt32() & 0xFFFFFFFFL;
                    default -> in.readInt64();
                };
                if (k < 0 || k >= dictSize) {
                    throw new ClickHouseProtocolException("LowCardinality key " + k + " outside dictionary of "
                            + dictSize);
                }
                a[i] = (int) k;
            }
            if (i == rows) {
                return new LowCardinalityColumn(this, rows, dictionary, a, nullable);
            }
            keys = ctx.grow(a, i, rows);
        }
    }

    private static int boundedCount(long v, int max, String what) {
        if (v < 0 || v > max) {
            throw new ClickHouseProtocolException(what + " " + Long.toUnsignedString(v) + " exceeds the limit " + max);
        }
        return (int) v;
    }

    @Override
    public ColumnWriter newWriter() {
        return new Writer();
    }

    /** Builds the dictionary while values are appended; key 0 is the default value (NULL when nullable). */
    private final class Writer implements ColumnWriter {
        private final ColumnWriter dict = dictionaryType.newWriter();
        private final Map<Object, Integer> index = new HashMap<>();
        private int[] keys = new int[1024];
        private int count;

        Writer() {
            reset();
        }

        @Override
        public DataType type() {
            return LowCardinalityType.this;
        }

        @Override
        public void append(Object value) {
            if (value == null) {
                if (!nullable) {
                    throw ColumnWriter.notNullable(name);
                }
                add(0);
                return;
            }
            Object key = value instanceof byte[] b ? ByteBuffer.wrap(b) : value;
            Integer k = index.get(key);
            if (k == null) {
                k = dict.size();
                dict.append(value);
                index.put(key, k);
            }
            add(k);
        }

        private void add(int k) {
            if (count == keys.length) {
                keys = Arrays.copyOf(keys, count * 2);
            }
            keys[count++] = k;
        }

        @Override
        public void appendDefault() {
            add(0);
        }

        @Override
        public int size() {
            return count;
        }

        @Override
        public void writeData(BinaryWriter out) throws IOException {
            if (count == 0) {
                return;
            }
            int dictSize = dict.size();
            int keyType = dictSize <= 0x100 ? 0 : dictSize <= 0x10000 ? 1 : 2;
            out.writeInt64(keyType | HAS_ADDITIONAL_KEYS);
            out.writeInt64(dictSize);
            dict.writeData(out);
            out.writeInt64(count);
            for (int i = 0; i < count; i++) {
                switch (keyType) {
                    case 0 -> out.writeUInt8(keys[i]);
                    case 1 -> out.writeInt16(keys[i]);
                    default -> out.writeInt32(keys[i]);
                }
            }
        }

        @Override
        public void reset() {
            count = 0;
            index.clear();
            dict.reset();
            dict.appendDefault(); // key 0: default value, or NULL for LowCardinality(Nullable)
        }
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.LowCardinalityB(inner(), depth);
    }

    @Override
    boolean acceptsNull() {
        return inner() instanceof NullableType;
    }

    @Override
    DataType modifiedType() {
        return inner;
    }

    @Override
    AggregateStateLayout rowBinaryLayout(String function) {
        return inner().rowBinaryLayout(function);
    }
}
