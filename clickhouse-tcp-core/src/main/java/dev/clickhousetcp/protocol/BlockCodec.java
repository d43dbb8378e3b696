package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.DeserializationState;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.NullableType;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.data.TupleType;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.util.Arrays;

/**
 * Reads and writes a Block in the native format at a given revision, per ClickHouse
 * {@code NativeReader}/{@code NativeWriter} and {@code NativeFormat.mdx}: BlockInfo (field-tagged),
 * VarUInt column and row counts, then per column its name, type name, the
 * has_custom_serialization byte (54454+) with its kind stack, and (when rows &gt; 0) the type's state
 * prefix and data. Sparse (54465+) and replicated (54482+) serializations are expanded into dense
 * columns on read, their dense size charged first against the block's expansion limit
 * ({@link DecodeLimits#maxExpansionBytes()}, via {@link ReadContext#chargeExpansion}); detached ones
 * (54478+, compressed queries only) are decompressed and decoded.
 */
public final class BlockCodec {
    // compact kind codes (has_custom_serialization payload)
    static final int KIND_DEFAULT = 0;
    static final int KIND_SPARSE = 1;
    static final int KIND_DETACHED = 2;
    static final int KIND_DETACHED_OVER_SPARSE = 3;
    static final int KIND_REPLICATED = 4;
    static final int KIND_COMBINATION = 5;
    static final long END_OF_GRANULE_FLAG = 1L << 62;

    private BlockCodec() {
    }

    /** Serialization kinds of one column, with children for Tuple elements. */
    record Kinds(boolean sparse, boolean replicated, boolean detached, Kinds[] elements) {
        static final Kinds DEFAULT = new Kinds(false, false, false, new Kinds[0]);

        boolean isDefault() {
            if (sparse || replicated || detached) {
                return false;
            }
            for (Kinds k : elements) {
                if (!k.isDefault()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Reads a block (after the Data packet's table name). Column buffers taken from {@code ctx}'s pool
     * return to it when {@code lifetime} ends.
     *
     * @param in       the reader of the block's bytes: the connection's reader, or a frame reader when the
     *                 query is compressed
     * @param ctx      the decoding context: negotiated revision, session time zone, {@link DecodeLimits} and
     *                 buffer pool
     * @param lifetime owner of the column buffers; the block's columns must not be used after it is released
     * @return the block, with all columns dense (sparse, replicated and detached serializations expanded);
     *         zero rows for a header or end-of-data block
     * @throws IOException when reading fails or the stream ends
     * @throws ClickHouseProtocolException when the block is malformed, uses an unknown type or serialization
     *         kind, or exceeds a limit of {@code ctx}
     */
    public static Block read(BinaryReader in, ReadContext ctx, Lifetime lifetime) throws IOException {
        long revision = ctx.revision();
        DecodeLimits limits = ctx.limits();
        ctx.beginBlock(in);
        readBlockInfo(in);
        int columns = in.readVarUIntBounded(limits.maxColumns(), "column count");
        int rows = in.readVarUIntBounded(limits.maxRowsPerBlock(), "row count");
        String[] names = new String[columns];
        Column[] cols = new Column[columns];
        for (int c = 0; c < columns; c++) {
            names[c] = ctx.readColumnName(in, c);
            DataType type;
            try {
                type = ctx.readColumnType(in, c);
            } catch (ClickHouseTypeException e) {
                throw new ClickHouseProtocolException("cannot decode column '" + names[c] + "': " + e.getMessage(), e);
            }
            Kinds kinds = Kinds.DEFAULT;
            if (ProtocolFeature.CUSTOM_SERIALIZATION.in(revision)) {
                int hasCustom = in.readUInt8();
                if (hasCustom != 0) {
                    kinds = readKinds(in, type, 0);
                }
            }
            if (rows > 0 && kinds.detached()) {
                cols[c] = readDetached(in, type, kinds, rows, ctx, names[c]);
            } else if (rows > 0) {
                DeserializationState state = type.readPrefix(in);
                cols[c] = readData(in, type, kinds, rows, ctx, state);
            } else { // no prefix precedes an empty column's (empty) data
                cols[c] = type.read(in, 0, ctx, DeserializationState.NONE);
            }
        }
        ctx.attachTo(lifetime);
        Block block = new Block(names, cols, rows, lifetime);
        for (Column col : cols) {
            ctx.countZeroWidthValues(zeroWidthValues(col));
        }
        ctx.endBlock(block);
        return block;
    }

    private static void readBlockInfo(BinaryReader in) throws IOException {
        for (int i = 0; i < 16; i++) {
            int field = (int) in.readVarUInt();
            switch (field) {
                case 0 -> {
                    return;
                }
                case 1 -> in.readUInt8(); // is_overflows
                case 2 -> in.readInt32(); // bucket_num
                case 3 -> { // out_of_order_buckets (54480+)
                    int n = in.readVarUIntBounded(1 << 20, "out_of_order_buckets count");
                    in.skip(4L * n);
                }
                default -> throw new ClickHouseProtocolException("unknown BlockInfo field " + field);
            }
        }
        throw new ClickHouseProtocolException("BlockInfo is not terminated");
    }

    private static Kinds readKinds(BinaryReader in, DataType type, int depth) throws IOException {
        if (depth > 32) {
            throw new ClickHouseProtocolException("serialization kinds nested too deep");
        }
        int code = in.readUInt8();
        boolean sparse = false;
        boolean replicated = false;
        boolean detached = false;
        switch (code) {
            case KIND_DEFAULT -> {
            }
            case KIND_SPARSE -> sparse = true;
            case KIND_DETACHED -> detached = true;
            case KIND_DETACHED_OVER_SPARSE -> {
                detached = true;
                sparse = true;
            }
            case KIND_REPLICATED -> replicated = true;
            case KIND_COMBINATION -> {
                int n = in.readVarUIntBounded(16, "serialization kind stack size");
                for (int i = 0; i < n; i++) {
                    int k = in.readUInt8();
                    switch (k) {
                        case 0 -> {
                        }
                        case 1 -> sparse = true;
                        case 2 -> detached = true;
                        case 3 -> replicated = true;
                        default -> throw new ClickHouseProtocolException("unknown serialization kind " + k);
                    }
                }
            }
            default -> throw new ClickHouseProtocolException("unknown serialization kind code " + code);
        }
        Kinds[] children = new Kinds[0];
        if (type instanceof TupleType t) {
            children = new Kinds[t.elements().size()];
            for (int i = 0; i < children.length; i++) {
                children[i] = readKinds(in, t.elements().get(i), depth + 1);
            }
        }
        for (Kinds k : children) {
            if (k.detached()) {
                // ClickHouse wraps whole non-Tuple columns only (NativeFormat.mdx, "Detached wire format")
                throw new ClickHouseProtocolException("detached (ColumnBLOB) serialization of a Tuple element");
            }
        }
        return new Kinds(sparse, replicated, detached, children);
    }

    /** The data of a column whose prefix {@code state} has been read, in the serialization {@code kinds}. */
    private static Column readData(BinaryReader in, DataType type, Kinds kinds, int rows, ReadContext ctx,
                                   DeserializationState state) throws IOException {
        if (kinds.sparse()) {
            ctx.countSparseColumn();
            return readSparse(in, type, rows, ctx, state);
        }
        if (kinds.replicated()) {
            ctx.countReplicatedColumn();
            return readReplicated(in, type, rows, ctx, state);
        }
        if (type instanceof TupleType t && kinds.elements().length > 0 && !kinds.isDefault()) {
            Column[] cols = new Column[kinds.elements().length];
            for (int i = 0; i < cols.length; i++) {
                cols[i] = readData(in, t.elements().get(i), kinds.elements()[i], rows, ctx, t.elementState(state, i));
            }
            return t.column(rows, cols);
        }
        return type.read(in, rows, ctx, state);
    }

    /**
     * Detached (DETACHED / DETACHED_OVER_SPARSE, protocol revision 54478+, only when the query has
     * compression on): ClickHouse {@code SerializationDetached} writes {@code VarUInt size} and the
     * {@code ColumnBLOB}'s bytes, which are compressed frames holding the column exactly as
     * {@code NativeWriter::writeData} writes it (state prefix, then data in the wrapped column's own
     * serialization, e.g. sparse). The frames are decompressed straight from {@code in}, bounded by
     * the size, with the context's reusable nested frame reader.
     */
    private static Column readDetached(BinaryReader in, DataType type, Kinds kinds, int rows, ReadContext ctx,
                                       String name) throws IOException {
        long size = in.readVarUInt();
        if (size < 0 || size > ctx.limits().maxColumnBytes()) {
            throw new ClickHouseProtocolException("detached column '" + name + "' of " + Long.toUnsignedString(size)
                    + " bytes exceeds the limit " + ctx.limits().maxColumnBytes());
        }
        long end = in.bytesRead() + size;
        dev.clickhousetcp.io.FramedReader frames = ctx.nestedFrames((dst, off, len) -> {
            if (in.bytesRead() + len > end) {
                throw new ClickHouseProtocolException("detached column '" + name + "' reads past its " + size
                        + " bytes");
            }
            in.readFully(dst, off, len);
        });
        BinaryReader blob = frames.reader();
        DeserializationState state = type.readPrefix(blob);
        Column col = readData(blob, type, new Kinds(kinds.sparse(), kinds.replicated(), false, kinds.elements()), rows,
                ctx, state);
        frames.checkFrameEnd("detached column '" + name + "'");
        if (in.bytesRead() != end) {
            throw new ClickHouseProtocolException("detached column '" + name + "' used " + (size - (end - in.bytesRead()))
                    + " of its " + size + " bytes");
        }
        ctx.countDetachedColumn();
        return col;
    }

    /** Sparse: VarUInt groups of defaults before each non-default value, ended by END_OF_GRANULE; then the values. */
    private static Column readSparse(BinaryReader in, DataType type, int rows, ReadContext ctx,
                                     DeserializationState state) throws IOException {
        int[] positions = new int[16];
        int count = 0;
        long cursor = 0;
        while (true) {
            long v = in.readVarUInt();
            if ((v & END_OF_GRANULE_FLAG) != 0) {
                cursor += v & ~END_OF_GRANULE_FLAG;
                break;
            }
            cursor += v;
            if (cursor >= rows) {
                throw new ClickHouseProtocolException("sparse offset " + cursor + " outside a block of " + rows + " rows");
            }
            if (count == positions.length) {
                positions = Arrays.copyOf(positions, count * 2);
            }
            positions[count++] = (int) cursor;
            cursor++;
        }
        if (cursor != rows) {
            throw new ClickHouseProtocolException("sparse column covers " + cursor + " rows of " + rows);
        }
        DataType valuesType = type instanceof NullableType n ? n.nested() : type;
        // a Nullable's state is its nested type's (the null map has none)
        Column values = valuesType.read(in, count, ctx, state);
        // the dense form: a row index per row, the defaults and the values gathered, a null map
        long denseBytes = (long) rows * (4 + (valuesType != type ? 1 : 0)) + (long) (rows - count) * defaultRowBytes(values);
        for (int i = 0; i < count; i++) {
            denseBytes = Math.min(Long.MAX_VALUE / 4, denseBytes + rowBytes(values, i));
        }
        ctx.chargeExpansion(denseBytes, "sparse column of " + rows + " rows with " + count + " values");
        int[] idx = new int[rows];
        Arrays.fill(idx, -1);
        for (int i = 0; i < count; i++) {
            idx[positions[i]] = i;
        }
        Column dense = values.gather(idx);
        if (type instanceof NullableType n) {
            byte[] nullMap = new byte[rows];
            for (int i = 0; i < rows; i++) {
                nullMap[i] = (byte) (idx[i] < 0 ? 1 : 0);
            }
            return n.column(rows, nullMap, dense);
        }
        return dense;
    }

    /** Replicated: VarUInt rows, UInt8 index width, indexes, VarUInt element count, elements. */
    private static Column readReplicated(BinaryReader in, DataType type, int rows, ReadContext ctx,
                                         DeserializationState state) throws IOException {
        DecodeLimits limits = ctx.limits();
        int n = in.readVarUIntBounded(limits.maxRowsPerBlock(), "replicated row count");
        if (n != rows) {
            throw new ClickHouseProtocolException("replicated column has " + n + " indexes for " + rows + " rows");
        }
        int width = in.readUInt8();
        if (width != 1 && width != 2 && width != 4 && width != 8) {
            throw new ClickHouseProtocolException("invalid replicated index width " + width);
        }
        int[] idx = ctx.firstInts(rows); // grows as indexes arrive
        for (int i = 0; i < rows; i++) {
            if (i == idx.length) {
                idx = ctx.grow(idx, i, rows);
            }
            long raw = switch (width) {
                case 1 -> in.readUInt8();
                case 2 -> in.readInt16() & 0xFFFFL;
                case 4 -> in.readInt32() & 0xFFFFFFFFL;
                default -> in.readInt64();
            };
            if (raw < 0 || raw >= limits.maxRowsPerBlock()) {
                throw new ClickHouseProtocolException("replicated index " + Long.toUnsignedString(raw)
                        + " outside a block of at most " + limits.maxRowsPerBlock() + " rows");
            }
            idx[i] = (int) raw;
        }
        int elements = in.readVarUIntBounded(limits.maxRowsPerBlock(), "replicated element count");
        Column values = type.read(in, elements, ctx, state);
        long dense = idx.length == rows ? 0 : 4L * rows; // a pooled index array longer than rows is copied
        for (int i = 0; i < rows; i++) {
            if (idx[i] >= elements) {
                throw new ClickHouseProtocolException("replicated index " + idx[i] + " outside " + elements + " elements");
            }
            dense = Math.min(Long.MAX_VALUE / 4, dense + rowBytes(values, idx[i]));
        }
        ctx.chargeExpansion(dense, "replicated column of " + rows + " rows over " + elements + " values");
        return values.gather(idx.length == rows ? idx : Arrays.copyOf(idx, rows));
    }

    /**
     * Bytes that {@link Column#gather} builds for one copy of {@code row}: fixed-width values their
     * width, variable-length ones their bytes and a 4-byte offset, arrays and maps a 4-byte offset and
     * their elements (plus a 4-byte element index each; none for {@code Tuple()} elements), Nullable a
     * null-map byte, Tuples their elements, LowCardinality a key, Variant and Dynamic their indexes and
     * the row's value; other columns (JSON, Nested, QBit, AggregateFunction) 16 bytes. Saturates at {@link Long#MAX_VALUE} / 4.
     */
    /**
     * Values of a zero-width column (an empty {@code Tuple()}) in {@code c}, counted over its structure
     * (Tuple elements, Array and Nested elements, Map keys and values, Nullable values), not its rows, so
     * dense forms (replicated, sparse) count what they expanded to.
     */
    static long zeroWidthValues(Column c) {
        if (c instanceof dev.clickhousetcp.data.TupleColumn t) {
            if (t.elementCount() == 0) {
                return t.size();
            }
            long sum = 0;
            for (int i = 0; i < t.elementCount(); i++) {
                sum = Math.min(Long.MAX_VALUE / 4, sum + zeroWidthValues(t.element(i)));
            }
            return sum;
        }
        if (c instanceof dev.clickhousetcp.data.ArrayColumn a) {
            return zeroWidthValues(a.elements());
        }
        if (c instanceof dev.clickhousetcp.data.NestedColumn n) {
            return zeroWidthValues(n.array());
        }
        if (c instanceof dev.clickhousetcp.data.MapColumn m) {
            return Math.min(Long.MAX_VALUE / 4, zeroWidthValues(m.keys()) + zeroWidthValues(m.values()));
        }
        if (c instanceof dev.clickhousetcp.data.NullableColumn n) {
            return zeroWidthValues(n.nested());
        }
        return 0;
    }

    static long rowBytes(Column c, int row) {
        if (c instanceof dev.clickhousetcp.data.FixedWidthColumn f) {
            return f.width();
        }
        if (c instanceof dev.clickhousetcp.data.VariableBytesColumn v) {
            return 4L + v.length(row);
        }
        if (c instanceof dev.clickhousetcp.data.ArrayColumn a) {
            return 4L + elementsBytes(a.elements(), a.start(row), a.length(row));
        }
        if (c instanceof dev.clickhousetcp.data.NullableColumn n) {
            return 1L + rowBytes(n.nested(), row);
        }
        if (c instanceof dev.clickhousetcp.data.TupleColumn t) {
            long sum = 0;
            for (int i = 0; i < t.elementCount(); i++) {
                sum = Math.min(Long.MAX_VALUE / 4, sum + rowBytes(t.element(i), row));
            }
            return sum;
        }
        if (c instanceof dev.clickhousetcp.data.MapColumn m) {
            return Math.min(Long.MAX_VALUE / 4, 4L + elementsBytes(m.keys(), m.start(row), m.length(row))
                    + elementsBytes(m.values(), m.start(row), m.length(row)));
        }
        if (c instanceof dev.clickhousetcp.data.LowCardinalityColumn) {
            return 4;
        }
        if (c instanceof dev.clickhousetcp.data.VariantColumn v) {
            int d = v.discriminator(row);
            return 9L + (d < v.variantCount() ? rowBytes(v.variant(d), v.offset(row)) : 0);
        }
        if (c instanceof dev.clickhousetcp.data.DynamicColumn v) {
            int t = v.typeIndex(row);
            return 12L + (t >= 0 && t < v.typeCount() ? rowBytes(v.typeColumn(t), v.offset(row)) : 0);
        }
        return 16;
    }

    /** {@link #rowBytes} of {@code length} rows of {@code c} from {@code start}, each with a 4-byte index. */
    private static long elementsBytes(Column c, int start, int length) {
        if (c instanceof dev.clickhousetcp.data.FixedWidthColumn f) {
            return (long) length * (4 + f.width());
        }
        if (c instanceof dev.clickhousetcp.data.TupleColumn t && t.elementCount() == 0) {
            return 0; // Tuple() elements are gathered without per-element memory
        }
        if (c instanceof dev.clickhousetcp.data.VariableBytesColumn v) {
            return length == 0 ? 0 : 8L * length + (v.start(start + length - 1) + v.length(start + length - 1) - v.start(start));
        }
        long sum = 4L * length;
        for (int k = start; k < start + length; k++) {
            sum = Math.min(Long.MAX_VALUE / 4, sum + rowBytes(c, k));
        }
        return sum;
    }

    /** Bytes that {@link Column#gather} builds for a default row (index -1) of {@code c}'s type. */
    static long defaultRowBytes(Column c) {
        if (c instanceof dev.clickhousetcp.data.FixedWidthColumn f) {
            return f.width();
        }
        if (c instanceof dev.clickhousetcp.data.VariableBytesColumn || c instanceof dev.clickhousetcp.data.ArrayColumn
                || c instanceof dev.clickhousetcp.data.MapColumn || c instanceof dev.clickhousetcp.data.LowCardinalityColumn) {
            return 4;
        }
        if (c instanceof dev.clickhousetcp.data.VariantColumn) {
            return 9;
        }
        if (c instanceof dev.clickhousetcp.data.NullableColumn n) {
            return 1L + defaultRowBytes(n.nested());
        }
        if (c instanceof dev.clickhousetcp.data.TupleColumn t) {
            long sum = 0;
            for (int i = 0; i < t.elementCount(); i++) {
                sum += defaultRowBytes(t.element(i));
            }
            return sum;
        }
        return 16;
    }

    /**
     * Writes a block built from column writers (all holding {@code rows} values), with default
     * serialization for every column.
     *
     * @param out      the writer of the block's bytes (the connection's, or a compressing one)
     * @param revision the negotiated revision; at 54454+ each column gets a has_custom_serialization byte 0
     * @param names    column names, in the order of {@code writers}
     * @param writers  one writer per column, same length as {@code names}; each writer's type name is sent
     * @param rows     number of rows; every writer must hold exactly this many values
     * @throws IOException when writing fails
     * @throws IllegalStateException when a writer does not hold {@code rows} values
     */
    public static void write(BinaryWriter out, long revision, String[] names, ColumnWriter[] writers, int rows)
            throws IOException {
        writeBlockInfo(out);
        out.writeVarUInt(names.length);
        out.writeVarUInt(rows);
        for (int c = 0; c < names.length; c++) {
            ColumnWriter w = writers[c];
            if (w.size() != rows) {
                throw new IllegalStateException("column '" + names[c] + "' has " + w.size() + " values, block has " + rows);
            }
            out.writeString(names[c]);
            out.writeString(w.type().name());
            if (ProtocolFeature.CUSTOM_SERIALIZATION.in(revision)) {
                out.writeUInt8(0);
            }
            if (rows > 0) {
                w.writePrefix(out);
                w.writeData(out);
            }
        }
    }

    /**
     * Writes a client Data packet (type, empty table name) holding the empty block that ends a data stream.
     *
     * @param out the writer to write the whole packet to, uncompressed
     * @throws IOException when writing fails
     */
    public static void writeEmptyDataPacket(BinaryWriter out) throws IOException {
        out.writeVarUInt(ClientPacket.DATA);
        out.writeString("");
        writeEmpty(out);
    }

    /**
     * Writes the empty block that ends a data stream: default BlockInfo, zero columns, zero rows.
     *
     * @param out the writer of the block's bytes
     * @throws IOException when writing fails
     */
    public static void writeEmpty(BinaryWriter out) throws IOException {
        writeBlockInfo(out);
        out.writeVarUInt(0);
        out.writeVarUInt(0);
    }

    private static void writeBlockInfo(BinaryWriter out) throws IOException {
        out.writeVarUInt(1);
        out.writeUInt8(0);
        out.writeVarUInt(2);
        out.writeInt32(-1);
        out.writeVarUInt(0);
    }
}
