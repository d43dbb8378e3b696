package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;

/**
 * Int8..Int64, UInt8..UInt64, Float32, Float64 and Bool: fixed-width little-endian values
 * (ClickHouse {@code SerializationNumber}, {@code SerializationBool}).
 */
public final class NumberType extends DataType {

    /** The numeric families. */
    public enum Kind {
        /** {@code Int8}: 1 byte, -128 to 127. */
        INT8(1, false, Byte.MIN_VALUE, Byte.MAX_VALUE),
        /** {@code UInt8}: 1 byte, 0 to 255. */
        UINT8(1, true, 0, 255),
        /** {@code Int16}: 2 bytes, -32,768 to 32,767. */
        INT16(2, false, Short.MIN_VALUE, Short.MAX_VALUE),
        /** {@code UInt16}: 2 bytes, 0 to 65,535. */
        UINT16(2, true, 0, 65535),
        /** {@code Int32}: 4 bytes. */
        INT32(4, false, Integer.MIN_VALUE, Integer.MAX_VALUE),
        /** {@code UInt32}: 4 bytes, 0 to 4,294,967,295. */
        UINT32(4, true, 0, 0xFFFFFFFFL),
        /** {@code Int64}: 8 bytes. */
        INT64(8, false, Long.MIN_VALUE, Long.MAX_VALUE),
        /** {@code UInt64}: 8 bytes, 0 to 2^64 - 1. */
        UINT64(8, true, 0, -1),
        /** {@code Float32}: 4-byte IEEE 754 single precision. */
        FLOAT32(4, false, 0, 0),
        /** {@code Float64}: 8-byte IEEE 754 double precision. */
        FLOAT64(8, false, 0, 0),
        /** {@code Bool}: 1 byte, 0 (false) or 1 (true). */
        BOOL(1, true, 0, 1);

        final int width;
        final boolean unsigned;
        final long min;
        final long max;

        Kind(int width, boolean unsigned, long min, long max) {
            this.width = width;
            this.unsigned = unsigned;
            this.min = min;
            this.max = max;
        }
    }

    private final Kind kind;

    NumberType(String name, Kind kind) {
        super(name);
        this.kind = kind;
    }

    /**
     * The numeric family of this type.
     *
     * @return the kind, never {@code null}
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Bytes per value.
     *
     * @return 1, 2, 4 or 8
     */
    public int width() {
        return kind.width;
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        byte[] d = readFixed(in, rows, kind.width, ctx, name);
        return switch (kind) {
            case INT8, UINT8 -> new Int8Column(this, rows, d, kind.unsigned);
            case INT16, UINT16 -> new Int16Column(this, rows, d, kind.unsigned);
            case INT32, UINT32 -> new Int32Column(this, rows, d, kind.unsigned);
            case INT64, UINT64 -> new Int64Column(this, rows, d, kind.unsigned);
            case FLOAT32 -> new Float32Column(this, rows, d);
            case FLOAT64 -> new Float64Column(this, rows, d);
            case BOOL -> new BoolColumn(this, rows, d);
        };
    }

    @Override
    public ColumnWriter newWriter() {
        return new Writer(this);
    }

    /** Numeric writer with primitive fast paths for bulk arrays. */
    static final class Writer extends FixedWriter {
        private final Kind kind;

        Writer(NumberType t) {
            super(t, t.kind.width);
            this.kind = t.kind;
        }

        @Override
        public void append(Object v) {
            if (v == null) {
                throw ColumnWriter.notNullable(type.name());
            }
            switch (kind) {
                case FLOAT32 -> putFloat32((float) Convert.toDouble(type, v));
                case FLOAT64 -> putFloat64(Convert.toDouble(type, v));
                case BOOL -> {
                    if (v instanceof Boolean b) {
                        putLong(b ? 1 : 0);
                    } else if (v instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
                        putLong(s.equalsIgnoreCase("true") ? 1 : 0);
                    } else {
                        putLong(Convert.toLong(type, v, 0, 1, false));
                    }
                }
                default -> putLong(Convert.toLong(type, v, kind.min, kind.max, kind == Kind.UINT64));
            }
        }

        /** Appends a Float32 row (its raw IEEE-754 bits). */
        private void putFloat32(float f) {
            int off = slot();
            INT.set(buf, off, Float.floatToRawIntBits(f));
        }

        /** Appends a Float64 row (its raw IEEE-754 bits). */
        private void putFloat64(double d) {
            int off = slot();
            LONG.set(buf, off, Double.doubleToRawLongBits(d));
        }

        @Override
        public void appendLong(long v) {
            switch (kind) {
                case FLOAT32 -> putFloat32((float) v);
                case FLOAT64 -> putFloat64((double) v);
                case UINT64 -> {
                    if (v < 0) {
                        throw Convert.outOfRange(type, v);
                    }
                    putLong(v);
                }
                default -> {
                    if (v < kind.min || v > kind.max) {
                        throw Convert.outOfRange(type, v);
                    }
                    putLong(v);
                }
            }
        }

        @Override
        public void appendDouble(double v) {
            switch (kind) {
                case FLOAT32 -> putFloat32((float) v);
                case FLOAT64 -> putFloat64(v);
                default -> append(v);
            }
        }

        @Override
        public void appendAll(Object values) {
            if (isNativeArray(values)) {
                int n = java.lang.reflect.Array.getLength(values);
                int off = reserve(n); // before reading buf: reserve may replace it
                BinaryWriter.putLittleEndian(values, 0, n, buf, off);
            } else if (values instanceof long[] a && kind != Kind.FLOAT32 && kind != Kind.FLOAT64) {
                for (long x : a) {
                    append(x);
                }
            } else {
                ColumnWriter.appendEach(this, values);
            }
        }

        @Override
        public void appendAllShared(Object values) {
            if (isEmpty() && isNativeArray(values)) {
                borrow(values, java.lang.reflect.Array.getLength(values));
            } else {
                appendAll(values);
            }
        }

        /**
         * Whether {@code values} is a primitive array laid out as this column's data already: a
         * {@code long[]} for Int64/UInt64 (raw bits), an {@code int[]} for Int32 (UInt32 when no value
         * is negative), a {@code double[]} for Float64, a {@code float[]} for Float32.
         */
        private boolean isNativeArray(Object values) {
            return values instanceof long[] && (kind == Kind.INT64 || kind == Kind.UINT64)
                    || values instanceof double[] && kind == Kind.FLOAT64
                    || values instanceof float[] && kind == Kind.FLOAT32
                    || values instanceof int[] a && (kind == Kind.INT32 || kind == Kind.UINT32 && allNonNegative(a));
        }

        private static boolean allNonNegative(int[] a) {
            for (int x : a) {
                if (x < 0) {
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    int rowBinaryWidth() {
        return width();
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        switch (kind) {
            case FLOAT32, FLOAT64: return ValueTypes.isFloating(v, strict);
            case BOOL: return v instanceof Boolean;
            default: return ValueTypes.integerIn(v, kind.width * 8, kind.unsigned);
        }
    }
}
