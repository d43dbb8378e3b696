package dev.clickhousetcp.protocol;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.DateTimeType;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocks of one connection remember the column names and types of earlier headers by position: a
 * repeated header gives back the same name strings and type instances, headers of other shapes
 * interleaved with it (side blocks) still decode as themselves, and a changed session zone resolves
 * zone-less DateTime columns again.
 */
class BlockHeaderReuseTest {
    private static final long REVISION = 54483;

    private static void block(BinaryWriter out, String[] names, String[] types, Object[] row) throws IOException {
        ColumnWriter[] writers = new ColumnWriter[types.length];
        for (int c = 0; c < types.length; c++) {
            writers[c] = DataTypes.parse(types[c], ZoneOffset.UTC).newWriter();
            writers[c].append(row[c]);
        }
        BlockCodec.write(out, REVISION, names, writers, 1);
    }

    @Test
    void repeatedHeadersReuseNamesAndTypesAndOtherHeadersStillDecode() throws IOException {
        String[] dataNames = {"id", "s", "f"};
        String[] dataTypes = {"UInt64", "String", "Float64"};
        String[] sideNames = {"host_name", "value"};
        String[] sideTypes = {"String", "Int64"};
        String[] thirdNames = {"id", "é"};
        String[] thirdTypes = {"Nullable(String)", "Array(UInt8)"};
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(bos, 1 << 16);
        block(w, dataNames, dataTypes, new Object[] {1L, "a", 1.5});
        block(w, dataNames, dataTypes, new Object[] {2L, "b", 2.5});
        block(w, sideNames, sideTypes, new Object[] {"h", 7L});
        block(w, dataNames, dataTypes, new Object[] {3L, "c", 3.5});
        block(w, thirdNames, thirdTypes, new Object[] {null, new byte[] {1, 2}});
        block(w, sideNames, sideTypes, new Object[] {"i", 8L});
        block(w, dataNames, dataTypes, new Object[] {4L, "d", 4.5});
        w.flush();
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(bos.toByteArray()), 1 << 16, 1 << 20);
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, REVISION, null);

        Block first = BlockCodec.read(in, ctx, Lifetime.FOREVER);
        Block second = BlockCodec.read(in, ctx, Lifetime.FOREVER);
        Block side = BlockCodec.read(in, ctx, Lifetime.FOREVER);
        Block third = BlockCodec.read(in, ctx, Lifetime.FOREVER);
        Block other = BlockCodec.read(in, ctx, Lifetime.FOREVER);
        Block side2 = BlockCodec.read(in, ctx, Lifetime.FOREVER);
        Block fourth = BlockCodec.read(in, ctx, Lifetime.FOREVER);

        for (Block b : new Block[] {first, second, third, fourth}) {
            for (int c = 0; c < 3; c++) {
                assertThat(b.name(c)).isEqualTo(dataNames[c]);
                assertThat(b.column(c).type().name()).isEqualTo(dataTypes[c]);
            }
        }
        for (int c = 0; c < 3; c++) {
            assertThat(second.name(c)).isSameAs(first.name(c));
            assertThat(second.column(c).type()).isSameAs(first.column(c).type());
            assertThat(third.column(c).type()).isSameAs(first.column(c).type());
        }
        assertThat(fourth.column(0).getLong(0)).isEqualTo(4L);
        assertThat(fourth.column(1).getString(0)).isEqualTo("d");
        assertThat(side.name(0)).isEqualTo("host_name");
        assertThat(side.column(1).type().name()).isEqualTo("Int64");
        assertThat(side2.column(0).getString(0)).isEqualTo("i");
        assertThat(side2.column(1).type()).isSameAs(side.column(1).type());
        assertThat(other.name(1)).isEqualTo("é");
        assertThat(other.column(0).type().name()).isEqualTo("Nullable(String)");
        assertThat(other.column(0).getObject(0)).isNull();
        assertThat(other.column(1).type().name()).isEqualTo("Array(UInt8)");
    }

    @Test
    void aChangedZoneResolvesZonelessDateTimeAgain() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(bos, 1 << 16);
        block(w, new String[] {"t"}, new String[] {"DateTime"}, new Object[] {0L});
        block(w, new String[] {"t"}, new String[] {"DateTime"}, new Object[] {0L});
        w.flush();
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(bos.toByteArray()), 1 << 16, 1 << 20);
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, REVISION, null);
        DataType utc = BlockCodec.read(in, ctx, Lifetime.FOREVER).column(0).type();
        ctx.zone(ZoneId.of("Asia/Tokyo"));
        DataType tokyo = BlockCodec.read(in, ctx, Lifetime.FOREVER).column(0).type();
        assertThat(((DateTimeType) utc).zone()).isEqualTo(ZoneOffset.UTC);
        assertThat(((DateTimeType) tokyo).zone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
    }
}
