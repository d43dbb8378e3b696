package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.Golden;
import dev.clickhousetcp.protocol.ServerPacket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One Data block per type family as ClickHouse 26.7 and 18.16 sent it (golden bytes, no server needed):
 * every value reads as the server printed it ({@code toString}, recorded at capture time), and the
 * types' writers write the block read back to the same bytes.
 */
class TypeFamilyGoldenTest {

    /** Types whose NULL is a value of the type itself (no Nullable wrapper), so toString has no NULL. */
    private static final List<String> NULL_INSIDE = List.of("Variant", "Dynamic", "Geometry");

    /**
     * Blocks the writers encode differently from the server (a valid encoding of the same values, or a
     * difference under a NULL): for these the values must round-trip and the bytes must still differ, so
     * that a writer change that closes the gap shows here and the entry is removed.
     */
    static final Map<String, String> KNOWN_DIFFERENCES = Map.of(
            "26.7.2/Dynamic", "the client writes Dynamic in the FLATTENED serialization (version 3); 26.7 sends V2",
            "26.7.2/JSON", "the client writes JSON in the STRING serialization (version 1); 26.7 sends V2",
            "26.7.2/SimpleAggregateFunction", "a SimpleAggregateFunction(f, T) column reads as T, so it is written "
                    + "back under T's name");

    static Stream<Arguments> blocks() {
        List<Arguments> a = new ArrayList<>();
        for (String version : Golden.VERSIONS) {
            for (String name : Golden.names(version, "data")) {
                a.add(Arguments.of(version, name.substring("data/".length())));
            }
        }
        return a.stream();
    }

    /** The Data packet's block, read at the capture's revision; the reader must end at the file's end. */
    private static Block read(String version, byte[] packet) throws IOException {
        BinaryReader r = Golden.reader(packet);
        assertThat(r.readVarUInt()).isEqualTo(ServerPacket.DATA);
        assertThat(r.readString()).isEmpty();
        Block b = BlockCodec.read(r, Golden.readContext(version), Lifetime.FOREVER);
        assertThat(r.bytesRead()).as("block read to its end").isEqualTo(packet.length);
        return b;
    }

    /** The block's body written again through each column type's writer. */
    private static byte[] write(String version, Block b) throws IOException {
        String[] names = b.names().toArray(String[]::new);
        ColumnWriter[] writers = new ColumnWriter[names.length];
        for (int c = 0; c < names.length; c++) {
            writers[c] = b.column(c).type().newWriter();
            writers[c].appendColumn(b.column(c));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(out, 1 << 12);
        w.writeVarUInt(ServerPacket.DATA);
        w.writeString("");
        BlockCodec.write(w, Golden.revision(version), names, writers, b.rowCount());
        w.flush();
        return out.toByteArray();
    }

    private static String window(byte[] b, int at) {
        return at < 0 ? "" : Arrays.toString(Arrays.copyOfRange(b, Math.max(0, at - 8), Math.min(b.length, at + 24)));
    }

    /** The offset after a Data packet's type, table name and BlockInfo: where its column count starts. */
    private static int afterBlockInfo(byte[] packet) throws IOException {
        BinaryReader r = Golden.reader(packet);
        r.readVarUInt();
        r.readString();
        for (long field = r.readVarUInt(); field != 0; field = r.readVarUInt()) {
            switch ((int) field) {
                case 1 -> r.readUInt8();
                case 2 -> r.readInt32();
                case 3 -> r.skip(4L * r.readVarUInt());
                default -> throw new AssertionError("BlockInfo field " + field);
            }
        }
        return (int) r.bytesRead();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("blocks")
    void valuesReadAsTheServerPrintedThem(String version, String family) throws IOException {
        Properties p = Golden.properties(version, "data/" + family);
        Block b = read(version, Golden.bytes(version, "data/" + family));
        assertThat(b.names()).containsExactly(p.getProperty("columns").split(","));
        assertThat(b.rowCount()).isEqualTo(Integer.parseInt(p.getProperty("rows")));
        Set<String> nulls = Set.of(p.getProperty("nulls").split(","));
        for (int row = 0; row < b.rowCount(); row++) {
            for (int c = 0; c < b.columnCount(); c++) {
                String key = row + "." + b.name(c);
                String actual = b.column(c).getString(row);
                String type = b.column(c).type().name();
                String expected = p.getProperty("value." + key);
                if (nulls.contains(key)) {
                    assertThat(actual).as(key).isNull();
                } else if (actual == null && NULL_INSIDE.stream().anyMatch(type::startsWith)) {
                    // toString of a Variant / Dynamic is a String, not Nullable: its NULL prints as ''
                    assertThat(expected).as(key + " of " + type).isEmpty();
                } else {
                    if (version.startsWith("18.")) {
                        // 18.16 prints day 0 as its zero date; the client prints it as 26.7 does
                        expected = expected.replace("0000-00-00", "1970-01-01");
                    }
                    assertThat(actual).as(key + " of " + type).isEqualTo(expected);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("blocks")
    void blockReadWritesBackToTheSameBytes(String version, String family) throws IOException {
        byte[] golden = Golden.bytes(version, "data/" + family);
        Block b = read(version, golden);
        byte[] written = write(version, b);
        // the client writes BlockInfo fields 1 and 2 (is_overflows, bucket_num); 26.7 also sends field 3
        // (out-of-order buckets, an empty list; ClickHouse BlockInfo::write), so the columns are compared
        byte[] want = Arrays.copyOfRange(golden, afterBlockInfo(golden), golden.length);
        byte[] got = Arrays.copyOfRange(written, afterBlockInfo(written), written.length);
        int at = Arrays.mismatch(want, got);
        String known = KNOWN_DIFFERENCES.get(version + "/" + family);
        if (known != null) {
            assertThat(at).as("no longer differs (%s): remove it from KNOWN_DIFFERENCES", known).isNotNegative();
        } else {
            assertThat(got).as("golden -> read -> write: first difference at column byte %d: golden %s, written %s", at,
                window(want, at), window(got, at)).isEqualTo(want);
        }
        // and what was written reads back to the same values
        Block again = read(version, written);
        for (int c = 0; c < b.columnCount(); c++) {
            Column x = b.column(c);
            Column y = again.column(c);
            assertThat(y.type().name()).isEqualTo(x.type().name());
            for (int row = 0; row < b.rowCount(); row++) {
                assertThat(y.getString(row)).isEqualTo(x.getString(row));
            }
        }
    }

    @Test
    void everyFamilyOfTheModernServerHasABlock() throws IOException {
        // the 67 families of TypeFamilyConformanceTest on 26.7; 18.16 has those it knows, the rest are listed
        assertThat(Golden.names("26.7.2", "data")).hasSize(67);
        List<String> legacy = Golden.names("18.16.1", "data");
        try (var in = TypeFamilyGoldenTest.class.getResourceAsStream("/golden/18.16.1/data/UNSUPPORTED.txt")) {
            long unsupported = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().count();
            assertThat(legacy.size() + unsupported).isEqualTo(67);
        }
        assertThat(legacy).contains("data/Int8", "data/String", "data/Nullable", "data/LowCardinality", "data/Tuple",
                "data/Decimal128", "data/AggregateFunction");
    }
}
