package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The writers' bulk paths (a whole primitive array taken without a copy, strings encoded straight
 * into the column buffer) produce exactly the bytes of the value-by-value path, without a server.
 */
class WriterFastPathsTest {

    private static DataType parse(String name) {
        return DataTypes.parse(name, ZoneOffset.UTC);
    }

    private static byte[] serialize(ColumnWriter w) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        // a small buffer, so that bulk writes cross buffer boundaries many times
        BinaryWriter out = new BinaryWriter(bytes, 64);
        w.writePrefix(out);
        w.writeData(out);
        out.flush();
        return bytes.toByteArray();
    }

    private static Column read(DataType t, byte[] bytes, int rows) throws IOException {
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(bytes), 1 << 16, 1 << 20);
        DeserializationState state = t.readPrefix(in);
        return t.read(in, rows, new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54488, null), state);
    }

    @Test
    void utf8EncodingEqualsStringGetBytes() throws IOException {
        Random rnd = new Random(7);
        List<String> values = new ArrayList<>(List.of("", "a", "plain ascii", "café", "naïve €100", "日本語テキスト",
                "emoji \uD83D\uDE00 pair", "lone high \uD800 end", "lone low \uDC00 mid", "\uD800", "\uDBFF\uDFFF",
                "tail high \uD83D", "\u007F\u0080\u07FF\u0800\uFFFF"));
        for (int i = 0; i < 2000; i++) {
            char[] c = new char[rnd.nextInt(40)];
            for (int k = 0; k < c.length; k++) {
                int kind = rnd.nextInt(5);
                c[k] = switch (kind) {
                    case 0 -> (char) rnd.nextInt(0x80);
                    case 1 -> (char) (0x80 + rnd.nextInt(0x780));
                    case 2 -> (char) (0xD800 + rnd.nextInt(0x800)); // surrogates, paired or not
                    default -> (char) rnd.nextInt(0x10000);
                };
            }
            values.add(new String(c));
        }
        DataType t = parse("String");
        ColumnWriter one = t.newWriter();
        for (String s : values) {
            one.append(s);
        }
        ColumnWriter bulk = t.newWriter();
        bulk.appendAll(values.toArray(new String[0]));
        ColumnWriter shared = t.newWriter();
        shared.appendAllShared(values.toArray(new String[0]));
        ColumnWriter sharedThenMore = t.newWriter();
        sharedThenMore.appendAllShared(values.subList(0, 100).toArray(new String[0]));
        for (String s : values.subList(100, values.size())) {
            sharedThenMore.append(s);
        }
        // long strings (over the one-pass limit of 42 chars) and a long non-ASCII one
        List<String> longOnes = List.of("x".repeat(43), "é".repeat(100), "\uD83D\uDE00".repeat(30) + "\uD800", "a".repeat(70000));
        ColumnWriter asBytes = t.newWriter();
        for (String s : values) {
            asBytes.append(s.getBytes(StandardCharsets.UTF_8));
        }
        byte[] expected = serialize(asBytes);
        assertThat(serialize(one)).isEqualTo(expected);
        assertThat(serialize(bulk)).isEqualTo(expected);
        assertThat(serialize(shared)).isEqualTo(expected);
        assertThat(serialize(sharedThenMore)).isEqualTo(expected);
        ColumnWriter longShared = t.newWriter();
        longShared.appendAllShared(longOnes.toArray(new String[0]));
        ColumnWriter longBytes = t.newWriter();
        for (String s : longOnes) {
            longBytes.append(s.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(serialize(longShared)).isEqualTo(serialize(longBytes));
        StringColumn back = (StringColumn) read(t, expected, values.size());
        for (int i = 0; i < values.size(); i++) {
            assertThat(back.getString(i)).isEqualTo(new String(values.get(i).getBytes(StandardCharsets.UTF_8),
                    StandardCharsets.UTF_8));
        }
    }

    @Test
    void borrowedArraysSerializeLikeValueByValue() throws IOException {
        Random rnd = new Random(11);
        long[] longs = rnd.longs(1000).toArray();
        double[] doubles = rnd.doubles(1000).toArray();
        int[] ints = rnd.ints(1000).toArray();
        float[] floats = new float[1000];
        for (int i = 0; i < floats.length; i++) {
            floats[i] = rnd.nextFloat() * 1e6f - 5e5f;
        }
        check("Int64", longs, i -> longs[i]);
        // a long[] into UInt64 carries raw bits (as getLong returns them); the boxed path range-checks, so compare
        // on non-negative values
        long[] unsigned = Arrays.stream(longs).map(x -> x >>> 1).toArray();
        check("UInt64", unsigned, i -> unsigned[i]);
        check("Float64", doubles, i -> doubles[i]);
        check("Int32", ints, i -> ints[i]);
        check("Float32", floats, i -> floats[i]);
    }

    private static void check(String type, Object array, java.util.function.IntFunction<Object> element) throws IOException {
        DataType t = parse(type);
        int n = java.lang.reflect.Array.getLength(array);
        ColumnWriter valueByValue = t.newWriter();
        for (int i = 0; i < n; i++) {
            valueByValue.append(element.apply(i));
        }
        byte[] expected = serialize(valueByValue);

        ColumnWriter copied = t.newWriter();
        copied.appendAll(array);
        assertThat(copied.size()).isEqualTo(n);
        assertThat(serialize(copied)).as(type + " copied").isEqualTo(expected);

        ColumnWriter borrowed = t.newWriter();
        borrowed.appendAllShared(array);
        assertThat(borrowed.size()).isEqualTo(n);
        assertThat(serialize(borrowed)).as(type + " borrowed").isEqualTo(expected);

        // appends after a borrowed array: the array is copied first, then the new values follow it
        ColumnWriter mixed = t.newWriter();
        mixed.appendAllShared(array);
        mixed.append(element.apply(0));
        mixed.appendAll(array);
        ColumnWriter mixedExpected = t.newWriter();
        for (int r = 0; r < 2 * n + 1; r++) {
            mixedExpected.append(element.apply(r < n ? r : r == n ? 0 : r - n - 1));
        }
        assertThat(mixed.size()).isEqualTo(2 * n + 1);
        assertThat(serialize(mixed)).as(type + " borrowed, then appended").isEqualTo(serialize(mixedExpected));

        // reset forgets the borrowed array; the writer is reusable
        mixed.reset();
        assertThat(mixed.size()).isZero();
        mixed.appendAllShared(array);
        assertThat(serialize(mixed)).isEqualTo(expected);
    }

    /** A row's array handed to appendAll (row-wise inserts) is copied at once: reusing the array for the next row is safe. */
    @Test
    void rowArraysAreCopiedNotBorrowed() throws IOException {
        DataType t = parse("Array(UInt64)");
        ColumnWriter w = t.newWriter();
        long[] reused = {1, 2, 3};
        w.append(reused);
        reused[0] = 10;
        reused[1] = 20;
        reused[2] = 30;
        w.append(reused);
        Column back = read(t, serialize(w), 2);
        assertThat(back.getString(0)).isEqualTo("[1,2,3]");
        assertThat(back.getString(1)).isEqualTo("[10,20,30]");
    }

    @Test
    void flatArrayEqualsRowByRow() throws IOException {
        Random rnd = new Random(13);
        int rows = 500;
        int[] ends = new int[rows];
        List<long[]> perRow = new ArrayList<>();
        List<Long> flat = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            long[] r = rnd.longs(rnd.nextInt(5), 0, Long.MAX_VALUE).toArray();
            perRow.add(r);
            for (long x : r) {
                flat.add(x);
            }
            ends[i] = flat.size();
        }
        long[] flatLongs = flat.stream().mapToLong(Long::longValue).toArray();
        DataType t = parse("Array(UInt64)");
        ColumnWriter rowByRow = t.newWriter();
        for (long[] r : perRow) {
            rowByRow.append(r);
        }
        byte[] expected = serialize(rowByRow);
        for (boolean shared : new boolean[] {false, true}) {
            ColumnWriter w = t.newWriter();
            if (shared) {
                w.appendAllShared(FlatArray.of(flatLongs, ends));
            } else {
                w.appendAll(FlatArray.of(flat, ends));
            }
            assertThat(w.size()).isEqualTo(rows);
            assertThat(serialize(w)).as("shared=" + shared).isEqualTo(expected);
        }

        // Array(Array(String)): a FlatArray of FlatArrays; two rows [['a'], []] and [['b', 'c']]
        DataType nested = parse("Array(Array(String))");
        ColumnWriter nestedRows = nested.newWriter();
        nestedRows.append(List.of(List.of("a"), List.of()));
        nestedRows.append(List.of(List.of("b", "c")));
        ColumnWriter nestedFlat = nested.newWriter();
        nestedFlat.appendAllShared(FlatArray.of(FlatArray.of(new String[] {"a", "b", "c"}, new int[] {1, 1, 3}),
                new int[] {2, 3}));
        assertThat(serialize(nestedFlat)).isEqualTo(serialize(nestedRows));
    }

    @Test
    void flatArrayRejectsInconsistentOffsets() {
        DataType t = parse("Array(UInt64)");
        assertThatThrownBy(() -> t.newWriter().appendAllShared(FlatArray.of(new long[] {1, 2, 3}, new int[] {1, 2})))
                .isInstanceOf(ClickHouseTypeException.class)
                .hasMessageContaining("has 3 values but its last end offset is 2");
        assertThatThrownBy(() -> FlatArray.of(new long[] {1, 2}, new int[] {2, 1}))
                .isInstanceOf(ClickHouseTypeException.class)
                .hasMessageContaining("offsets must never decrease");
        assertThatThrownBy(() -> FlatArray.of(new long[0], new int[] {-1}))
                .isInstanceOf(ClickHouseTypeException.class);
    }

    /** A NULL in a whole String[] column is reported at its own index (the writer holds the rows before it). */
    @Test
    void nullInSharedStringArrayKeepsItsIndex() {
        ColumnWriter w = parse("String").newWriter();
        assertThatThrownBy(() -> w.appendAllShared(new String[] {"a", "b", null, "d"}))
                .isInstanceOf(ClickHouseTypeException.class)
                .hasMessageContaining("NULL is not a value of non-Nullable type String");
        assertThat(w.size()).isEqualTo(2);
    }
}
