package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link DataType} needs while decoding one block: the size limits, the time zone of DateTime
 * types without an explicit zone, the protocol revision, and where column buffers come from. With a {@link BufferPool}, the arrays taken
 * for a block return to the pool when the block's {@link Lifetime} ends; without one (detached
 * blocks such as Totals), arrays are plain allocations. Single-threaded.
 */
public final class ReadContext {
    private final DecodeLimits limits;
    private ZoneId zone;
    private final long revision;
    private final BufferPool pool;
    private List<byte[]> takenBytes = new ArrayList<>();
    private List<int[]> takenInts = new ArrayList<>();
    private dev.clickhousetcp.io.FramedReader nestedFrames;
    private dev.clickhousetcp.io.BinaryReader blockReader;
    private long blockStart;
    private long expansion;
    private long zeroWidthValues;
    private long sparseColumns;
    private long replicatedColumns;
    private long detachedColumns;

    /**
     * A context for decoding the blocks of one connection.
     *
     * @param limits   the bounds every size read off the wire is checked against
     * @param zone     the zone for DateTime types without an explicit one (see {@link #zone(ZoneId)})
     * @param revision the protocol revision negotiated in the Hello exchange; some serializations depend on it
     * @param pool     where column arrays come from and return to, or {@code null} for plain allocations
     *                 (detached blocks)
     */
    public ReadContext(DecodeLimits limits, ZoneId zone, long revision, BufferPool pool) {
        this.limits = limits;
        this.zone = zone;
        this.revision = revision;
        this.pool = pool;
    }

    /**
     * The bounds sizes read off the wire are checked against.
     *
     * @return the decode limits, never {@code null}
     */
    public DecodeLimits limits() {
        return limits;
    }

    /**
     * The zone DateTime, DateTime64 and Date types without an explicit zone are resolved with: the
     * zone the server reads and prints them in for the query being decoded (its session zone, else the
     * server's).
     *
     * @return the zone for DateTime types without an explicit zone
     */
    public ZoneId zone() {
        return zone;
    }

    /**
     * Sets the zone for the blocks of the next query (a connection reuses its context across queries).
     *
     * @param zone the session zone of the query, else the server's zone
     */
    public void zone(ZoneId zone) {
        this.zone = zone;
    }

    /**
     * The negotiated protocol revision the block was written at.
     *
     * @return the revision (the smaller of the client's and the server's revision)
     */
    public long revision() {
        return revision;
    }

    /**
     * A reader of compressed frames pulled from {@code source}, for column payloads that are compressed
     * inside an (already decompressed) block: the DETACHED serialization of parallel block marshalling
     * (ClickHouse {@code ColumnBLOB}). One instance per context, created on first use and reused, so its
     * frame buffers are kept.
     *
     * @param source where the compressed frames' bytes are read from
     * @return the context's frame reader, now reading from {@code source}
     */
    public dev.clickhousetcp.io.FramedReader nestedFrames(dev.clickhousetcp.io.CompressedInputStream.Source source) {
        if (nestedFrames == null || !nestedFrames.atFrameEnd()) { // none yet, or left inside a failed payload
            nestedFrames = new dev.clickhousetcp.io.FramedReader(source, 16 * 1024, limits.maxStringBytes(),
                    limits.maxFrameBytes());
        } else {
            nestedFrames.source(source);
        }
        return nestedFrames;
    }

    /**
     * Counts one column received in sparse serialization (statistics of this context's connection).
     */
    public void countSparseColumn() {
        sparseColumns++;
    }

    /**
     * Counts one column received in replicated serialization (statistics of this context's connection).
     */
    public void countReplicatedColumn() {
        replicatedColumns++;
    }

    /**
     * Counts one column received detached, as a blob of compressed frames (statistics of this context's
     * connection).
     */
    public void countDetachedColumn() {
        detachedColumns++;
    }

    /**
     * Columns read through this context in sparse serialization (ClickHouse {@code SerializationSparse}),
     * counting each sparse column, also inside a Tuple or a detached column.
     *
     * @return the count since the context was created
     */
    public long sparseColumnsRead() {
        return sparseColumns;
    }

    /**
     * Columns read through this context in replicated serialization ({@code SerializationReplicated}).
     *
     * @return the count since the context was created
     */
    public long replicatedColumnsRead() {
        return replicatedColumns;
    }

    /**
     * Columns read through this context detached ({@code SerializationDetached}, a column as a blob of
     * compressed frames, protocol revision 54478 and later).
     *
     * @return the count since the context was created
     */
    public long detachedColumnsRead() {
        return detachedColumns;
    }

    /**
     * Starts the expansion account of a block read from {@code in}: what compact serializations build
     * from now on is charged against {@link DecodeLimits#maxExpansionBytes()}, or
     * {@link DecodeLimits#EXPANSION_PER_BYTE_RECEIVED} times the bytes {@code in} delivers from now on,
     * whichever is more (see {@link #chargeExpansion}).
     *
     * @param in the reader the block's bytes come from; its {@code bytesRead()} is the received-bytes measure
     */
    public void beginBlock(dev.clickhousetcp.io.BinaryReader in) {
        blockReader = in;
        blockStart = in.bytesRead();
        expansion = 0;
        zeroWidthValues = 0;
    }

    /**
     * Charges {@code bytes} of dense form that a compact serialization (sparse, replicated, compact
     * discriminators) is about to build, before it is allocated. The block's charges may add up to
     * {@link DecodeLimits#maxExpansionBytes()}, or to {@link DecodeLimits#EXPANSION_PER_BYTE_RECEIVED}
     * times the bytes received since {@link #beginBlock} when that is more.
     *
     * @param bytes the dense bytes about to be built (row indexes, copied values, null maps, offsets)
     * @param what  what expands, for the message
     * @throws dev.clickhousetcp.ClickHouseProtocolException when the block's charges exceed what is allowed
     */
    public void chargeExpansion(long bytes, String what) {
        expansion = bytes < 0 || expansion + bytes < 0 ? Long.MAX_VALUE : expansion + bytes;
        if (expansion <= limits.maxExpansionBytes()) {
            return;
        }
        String refusal = overAllowance(expansion, receivedInBlock(), limits.maxExpansionBytes(),
                what + " expands its block to", "bytes of dense form");
        if (refusal != null) {
            throw new dev.clickhousetcp.ClickHouseProtocolException(refusal);
        }
    }

    /** Bytes received since {@link #beginBlock}. */
    private long receivedInBlock() {
        return blockReader == null ? 0 : Math.max(0, blockReader.bytesRead() - blockStart);
    }

    /**
     * Bytes charged for each row of a block, and for each value of a zero-width column in it, against
     * what the row tiers may build (see {@link #endBlock}): 32, at least what one object per row or value
     * costs (a 16-byte header, a reference to each value, the reference that holds it).
     */
    public static final int ROW_OBJECT_BYTES = 32;

    /**
     * Counts {@code n} values of a column that takes no bytes on the wire (ClickHouse's empty
     * {@code Tuple()}, also as an Array's or a Map's elements, in the block's dense form): the block tier
     * represents them with nothing per value, the row tiers build an object per value (see
     * {@link #endBlock}). The block reader counts them once a block's columns are read.
     *
     * @param n the number of values, at least 0
     */
    public void countZeroWidthValues(long n) {
        zeroWidthValues = n < 0 || zeroWidthValues + n < 0 ? Long.MAX_VALUE : zeroWidthValues + n;
    }

    /**
     * Ends the account of {@code block}, read since {@link #beginBlock}: records on it the objects the
     * row tiers (Object[] rows, mapped objects) would build for it, {@link #ROW_OBJECT_BYTES} per row and
     * per zero-width value, with the bytes received for it and {@link DecodeLimits#maxExpansionBytes()}.
     * They are weighed against the same allowance as the dense form of compact serializations (that
     * limit, or {@link DecodeLimits#EXPANSION_PER_BYTE_RECEIVED} bytes per byte received, whichever is
     * more), so rows and values that no bytes back are bounded the way decoded bytes are: per block by
     * {@link Block#checkRowObjects()}, across the blocks of a result kept whole by a
     * {@link RowObjectAccount}. A block over it still decodes (its block-tier form costs nothing per row).
     * Rows and values of at least one byte each are always within the allowance.
     *
     * @param block the block just decoded
     */
    public void endBlock(Block block) {
        long objects = block.rowCount() + zeroWidthValues;
        long bytes = objects < 0 || objects > Long.MAX_VALUE / ROW_OBJECT_BYTES ? Long.MAX_VALUE
                : objects * ROW_OBJECT_BYTES;
        block.rowObjects(bytes, receivedInBlock(), limits.maxExpansionBytes());
    }

    /**
     * The refusal when {@code charged} bytes exceed what {@code received} bytes allow under {@code limit}
     * ({@link DecodeLimits#maxExpansionBytes()}, or {@link DecodeLimits#EXPANSION_PER_BYTE_RECEIVED} times
     * {@code received} when that is more), or {@code null} when they do not.
     */
    static String overAllowance(long charged, long received, long limit, String what, String unit) {
        long allowed = Math.max(limit, received > Long.MAX_VALUE / DecodeLimits.EXPANSION_PER_BYTE_RECEIVED
                ? Long.MAX_VALUE : received * DecodeLimits.EXPANSION_PER_BYTE_RECEIVED);
        if (charged <= allowed) {
            return null;
        }
        return what + " " + (charged == Long.MAX_VALUE ? "more than " + Long.MAX_VALUE : charged) + " " + unit
                + " from " + received + " bytes received, over the limit maxExpansionBytes " + limit + " (or "
                + DecodeLimits.EXPANSION_PER_BYTE_RECEIVED + " bytes per byte received)";
    }

    /** Column positions whose name and type are remembered between blocks. */
    static final int HEADER_POSITIONS = 256;

    /** The names seen at each column position. */
    private final HeaderSlots<String> names = new HeaderSlots<>();
    /** The types seen at each column position, with the zone they were resolved in. */
    private final HeaderSlots<DataType> types = new HeaderSlots<>();

    /**
     * What was read at each column position of a block header, two per position (the most recent
     * first), with its wire bytes: a result's blocks repeat their header, interleaved with side blocks
     * (ProfileEvents, Log) of another header.
     */
    private static final class HeaderSlots<V> {
        private final byte[][] wire = new byte[2 * HEADER_POSITIONS][];
        private final Object[] values = new Object[2 * HEADER_POSITIONS];
        private final ZoneId[] zones = new ZoneId[2 * HEADER_POSITIONS];

        /**
         * The value remembered at {@code column} for {@code zone} whose wire bytes come next in
         * {@code in}, which consumes them; {@code null} (nothing consumed) when there is none.
         */
        @SuppressWarnings("unchecked")
        V take(BinaryReader in, int column, ZoneId zone) {
            if (column < HEADER_POSITIONS) {
                for (int k = 2 * column; k < 2 * column + 2; k++) {
                    if (wire[k] != null && java.util.Objects.equals(zone, zones[k]) && in.skipIfBuffered(wire[k])) {
                        return (V) values[k];
                    }
                }
            }
            return null;
        }

        /** Remembers {@code value}, read from the string {@code text}, at {@code column} for {@code zone}. */
        void remember(int column, String text, V value, ZoneId zone) {
            if (column < HEADER_POSITIONS) {
                int a = 2 * column;
                wire[a + 1] = wire[a];
                values[a + 1] = values[a];
                zones[a + 1] = zones[a];
                wire[a] = wire(text);
                values[a] = value;
                zones[a] = zone;
            }
        }

        /** A string as it appears on the wire: VarUInt byte length, then its UTF-8 bytes. */
        private static byte[] wire(String s) {
            byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] prefix = new byte[10];
            int p = BinaryWriter.putVarUInt(b.length, prefix, 0);
            byte[] w = java.util.Arrays.copyOf(prefix, p + b.length);
            System.arraycopy(b, 0, w, p, b.length);
            return w;
        }
    }

    /**
     * Reads the name of the column at {@code column} in a block header (a string), giving back the
     * {@code String} of an earlier block when the bytes are the same, so the blocks of a result do not
     * decode and allocate their column names again.
     *
     * @param in     the reader positioned at the name
     * @param column the column's 0-based position in the block
     * @return the name
     * @throws IOException when reading fails; {@link java.io.EOFException} when the stream has ended
     * @throws ClickHouseProtocolException when the length exceeds {@link BinaryReader#maxStringBytes()}
     */
    public String readColumnName(BinaryReader in, int column) throws IOException {
        String name = names.take(in, column, null);
        if (name == null) {
            name = in.readString();
            names.remember(column, name, name, null);
        }
        return name;
    }

    /**
     * Reads the type name of the column at {@code column} in a block header and resolves it (in this
     * context's zone and limits), giving back the type resolved for an earlier block when the bytes and
     * the zone are the same, so the blocks of a result do not parse their type names again.
     *
     * @param in     the reader positioned at the type name
     * @param column the column's 0-based position in the block
     * @return the resolved type
     * @throws IOException when reading fails; {@link java.io.EOFException} when the stream has ended
     * @throws ClickHouseProtocolException when the name exceeds {@link DecodeLimits#maxTypeNameBytes()}
     * @throws dev.clickhousetcp.ClickHouseTypeException when the name is malformed or names an unsupported type
     */
    public DataType readColumnType(BinaryReader in, int column) throws IOException {
        DataType type = types.take(in, column, zone);
        if (type == null) {
            String typeName = in.readString(limits.maxTypeNameBytes(), "type name length");
            type = DataTypes.parse(typeName, zone, limits);
            types.remember(column, typeName, type, zone);
        }
        return type;
    }

    /**
     * The first capacity, in bytes, of a buffer whose final size is read off the wire (1 MiB): the
     * buffer starts at this size (or the declared size when smaller) and doubles as bytes actually
     * arrive, so a declared size the stream never backs costs its sender bandwidth, not our heap. A
     * ClickHouse block of the default {@code max_block_size} (65,409 rows) fits a column of up to
     * 16 bytes per row in the first buffer, so ordinary blocks never grow.
     */
    public static final int FIRST_BYTES = 1 << 20;

    /** The first capacity, in elements, of an int array sized from a row count read off the wire (256 Ki). */
    public static final int FIRST_INTS = 1 << 18;

    /**
     * A byte array for a column whose final size is {@code declared} bytes, a count read off the wire
     * and not yet backed by received bytes: at least {@code min(declared, FIRST_BYTES)} long; grow it
     * with {@link #grow(byte[], int, long)} as bytes arrive.
     *
     * @param declared the final size in bytes announced by the wire, at least 0
     * @return a (possibly pooled) array of at least {@code min(declared, FIRST_BYTES)} bytes, contents undefined
     */
    byte[] firstBytes(long declared) {
        return bytes((int) Math.min(declared, FIRST_BYTES));
    }

    /**
     * As {@link #firstBytes}, for an int array of {@code declared} elements (at most {@link #FIRST_INTS} at first).
     *
     * @param declared the final element count announced by the wire, at least 0
     * @return a (possibly pooled) array of at least {@code min(declared, FIRST_INTS)} elements, contents undefined
     */
    public int[] firstInts(long declared) {
        return ints((int) Math.min(declared, FIRST_INTS));
    }

    /**
     * Exactly {@code n} bytes, a size declared by the wire, from {@code in} into a (pooled) column array
     * of this context that grows as the bytes arrive: it starts at {@code min(n, FIRST_BYTES)} and
     * doubles (old arrays go back to the pool), so at most twice the bytes received are committed. The
     * usual case, {@code n <= FIRST_BYTES}, is one allocation and one copy. The returned array may be
     * longer than {@code n}.
     *
     * @param in the reader positioned at the bytes
     * @param n  number of bytes to read, as declared by the wire (already checked against a limit)
     * @return an array whose first {@code n} bytes are the bytes read
     * @throws IOException when reading fails; {@link java.io.EOFException} when the stream ends first
     */
    public byte[] readDeclared(BinaryReader in, int n) throws IOException {
        byte[] data = firstBytes(n);
        int got = 0;
        while (got < n) {
            if (got == data.length) {
                data = grow(data, got, n);
            }
            int k = Math.min(n, data.length) - got;
            in.readFully(data, got, k);
            got += k;
        }
        return data;
    }

    /**
     * The bytes and end offsets of a String column: {@code offsets[i]} = end of row i in {@code data};
     * row i starts at {@code offsets[i-1]}, 0 for row 0. Both arrays may be longer than used.
     *
     * @param data    the values' bytes, back to back, without length prefixes; the first
     *                {@code offsets[rows - 1]} bytes are used
     * @param offsets end offset in {@code data} of each row; the first {@code rows} entries are used
     */
    public record StringData(byte[] data, int[] offsets) {
    }

    /**
     * Reads {@code rows} length-prefixed strings (VarUInt length, bytes; ClickHouse
     * {@code SerializationString}) from {@code in} into a contiguous byte array and an offsets array of
     * this context. Both arrays grow as values arrive (offsets from {@code min(rows, FIRST_INTS)}, data
     * from at most 1 MiB, each doubling), so a row count or a length the stream does not back commits no
     * memory.
     *
     * @param in            the reader positioned at the column's data
     * @param rows          number of values to read
     * @param maxTotalBytes largest accepted sum of the values' lengths, in bytes
     * @return the bytes and end offsets of the {@code rows} values
     * @throws IOException                 when reading fails; {@link java.io.EOFException} when the stream
     *                                     ends first
     * @throws ClickHouseProtocolException when a length exceeds {@link BinaryReader#maxStringBytes()} or
     *                                     the column {@code maxTotalBytes}
     */
    public StringData readStringColumn(BinaryReader in, int rows, long maxTotalBytes) throws IOException {
        int maxStringBytes = in.maxStringBytes();
        int[] offsets = firstInts(rows);
        byte[] data = bytes((int) Math.max(16, Math.min(rows * 8L, 1 << 20)));
        int used = 0;
        int i = 0;
        while (i < rows) {
            if (i == offsets.length) {
                offsets = grow(offsets, i, rows);
            }
            // the values wholly in the reader's buffer, in one call; then one value the slow way
            int next = in.copyBufferedValues(data, offsets, i, Math.min(rows, offsets.length), maxTotalBytes);
            if (next > i) {
                used = offsets[next - 1];
                i = next;
                continue;
            }
            int len = in.readVarUIntBounded(maxStringBytes, "string length");
            int end = used + len;
            if (end < 0 || end > maxTotalBytes) {
                throw new ClickHouseProtocolException("string column exceeds " + maxTotalBytes + " bytes");
            }
            if (in.buffered() >= len) {
                while (end > data.length) { // the bytes are here: grow to hold them
                    data = grow(data, used, Math.max((long) end, 2L * data.length));
                }
                in.copyBuffered(data, used, len); // buffered: one copy
            } else {
                // a value longer than what is buffered: commit memory only as its bytes arrive
                while (used < end) {
                    if (used == data.length) {
                        data = grow(data, used, Math.max((long) end, 2L * data.length));
                    }
                    int k = Math.min(end, data.length) - used;
                    in.readFully(data, used, k);
                    used += k;
                }
            }
            used = end;
            offsets[i++] = used;
        }
        return new StringData(data, offsets);
    }

    /**
     * A larger copy of {@code old} whose first {@code used} bytes are kept: twice as long, capped at
     * {@code declared} (the final size the wire announced), at least {@code used + 1}. {@code old} goes
     * back to the pool at once. Call it only when {@code used} bytes have actually been received, so
     * what is allocated stays within twice what arrived.
     *
     * @param old      the array being filled, taken from this context
     * @param used     how many leading bytes of {@code old} hold data received so far
     * @param declared the final size in bytes the wire announced
     * @return the new array, holding {@code old}'s first {@code used} bytes
     */
    public byte[] grow(byte[] old, int used, long declared) {
        int n = (int) Math.max(used + 1L, Math.min(declared, Math.min(2L * old.length, Integer.MAX_VALUE - 16)));
        byte[] b = bytes(n);
        System.arraycopy(old, 0, b, 0, used);
        giveBack(old);
        return b;
    }

    /**
     * As {@link #grow(byte[], int, long)}, for int arrays.
     *
     * @param old      the array being filled, taken from this context
     * @param used     how many leading elements of {@code old} hold data received so far
     * @param declared the final element count the wire announced
     * @return the new array, holding {@code old}'s first {@code used} elements
     */
    public int[] grow(int[] old, int used, long declared) {
        int n = (int) Math.max(used + 1L, Math.min(declared, Math.min(2L * old.length, Integer.MAX_VALUE - 16)));
        int[] a = ints(n);
        System.arraycopy(old, 0, a, 0, used);
        giveBack(old);
        return a;
    }

    private void giveBack(byte[] old) {
        if (pool != null && untake(takenBytes, old)) {
            pool.release(old);
        }
    }

    private void giveBack(int[] old) {
        if (pool != null && untake(takenInts, old)) {
            pool.release(old);
        }
    }

    /** Removes the last entry of {@code taken} that is {@code old} itself; whether there was one. */
    private static boolean untake(List<?> taken, Object old) {
        for (int i = taken.size() - 1; i >= 0; i--) {
            if (taken.get(i) == old) {
                taken.remove(i);
                return true;
            }
        }
        return false;
    }

    /**
     * A byte array of at least {@code n} bytes for a column of the current block.
     *
     * @param n the minimum length
     * @return a pooled array (returned to the pool with the block, see {@link #attachTo}), or a new one of
     *         exactly {@code n} bytes without a pool; contents of a pooled array are undefined
     */
    public byte[] bytes(int n) {
        if (pool == null) {
            return new byte[n];
        }
        byte[] b = pool.bytes(n);
        takenBytes.add(b);
        return b;
    }

    /**
     * An int array of at least {@code n} elements for a column of the current block.
     *
     * @param n the minimum length
     * @return a pooled array (returned to the pool with the block, see {@link #attachTo}), or a new one of
     *         exactly {@code n} elements without a pool; contents of a pooled array are undefined
     */
    int[] ints(int n) {
        if (pool == null) {
            return new int[n];
        }
        int[] a = pool.ints(n);
        takenInts.add(a);
        return a;
    }

    /**
     * Hands the arrays taken since the last call to {@code lifetime}: they go back to the pool when it
     * is released. With {@link Lifetime#FOREVER} the arrays are simply forgotten (never returned); without
     * a pool nothing happens.
     *
     * @param lifetime the lifetime of the block the arrays belong to
     */
    public void attachTo(Lifetime lifetime) {
        if (pool == null || (takenBytes.isEmpty() && takenInts.isEmpty())) {
            return;
        }
        if (lifetime == Lifetime.FOREVER) {
            takenBytes = new ArrayList<>();
            takenInts = new ArrayList<>();
            return;
        }
        List<byte[]> b = takenBytes;
        List<int[]> i = takenInts;
        takenBytes = new ArrayList<>();
        takenInts = new ArrayList<>();
        BufferPool p = pool;
        lifetime.onRelease(() -> {
            for (byte[] x : b) {
                p.release(x);
            }
            for (int[] x : i) {
                p.release(x);
            }
        });
    }
}
