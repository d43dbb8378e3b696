package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Type-name resolution and writer/reader symmetry of the scalar families, without a server. */
class ScalarFamiliesTest {

    private static DataType parse(String name) {
        return DataTypes.parse(name, ZoneOffset.UTC);
    }

    /** Writes {@code values} with the type's writer and reads them back with the type's reader. */
    private static Column roundTrip(DataType t, List<?> values) throws IOException {
        ColumnWriter w = t.newWriter();
        for (Object v : values) {
            w.append(v);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryWriter out = new BinaryWriter(bytes, 1 << 16);
        w.writePrefix(out);
        w.writeData(out);
        out.flush();
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(bytes.toByteArray()), 1 << 16, 1 << 20);
        DeserializationState state = t.readPrefix(in);
        return t.read(in, values.size(), new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54488, null), state);
    }

    @Test
    void familyNames() {
        assertThat(parse("Enum('a', 'b')").name()).isEqualTo("Enum8('a' = 1, 'b' = 2)");
        assertThat(parse("Enum('a' = -129, 'b')").name()).isEqualTo("Enum16('a' = -129, 'b' = -128)");
        assertThat(parse("Enum('x' = 5, 'y')")).isInstanceOf(EnumType.class);
        assertThat(((DecimalType) parse("Decimal32(2)")).precision()).isEqualTo(9);
        assertThat(((DecimalType) parse("Decimal256(3)")).width()).isEqualTo(32);
        assertThat(((DecimalType) parse("Decimal(19, 0)")).width()).isEqualTo(16);
        assertThat(((DecimalType) parse("Decimal")).precision()).isEqualTo(10);
        assertThat(((TimeType) parse("Time64(6)")).scale()).isEqualTo(6);
        assertThat(((IntervalType) parse("IntervalQuarter")).unit()).isEqualTo(IntervalType.Unit.QUARTER);
        assertThat(((NestedType) parse("Nested(a UInt8, `b c` String)")).fieldNames()).containsExactly("a", "b c");
        assertThat(((QBitType) parse("QBit(BFloat16, 9)")).dimension()).isEqualTo(9);
        assertThat(((GeoType) parse("MultiPolygon")).structure().name()).isEqualTo("Array(Polygon)");
        for (String bad : List.of("Decimal(77, 2)", "Decimal(5, 6)", "Time64(10)", "Time('UTC')", "QBit(Int8, 3)",
                "QBit(Float32, 0)", "IntervalDay(3)", "Point(1)", "Nested(UInt8)", "Enum()", "Enum('a' = 40000)")) {
            assertThatThrownBy(() -> parse(bad)).as(bad).isInstanceOf(ClickHouseTypeException.class);
        }
    }

    @Test
    void ipv6TextMatchesJavaParsing() throws Exception {
        Random rnd = new Random(42);
        IPv6Type t = (IPv6Type) parse("IPv6");
        for (int i = 0; i < 5000; i++) {
            byte[] b = new byte[16];
            rnd.nextBytes(b);
            // zero runs of random length and position, IPv4-mapped/compatible prefixes
            int zs = rnd.nextInt(8);
            int zl = rnd.nextInt(9 - zs);
            for (int k = 2 * zs; k < 2 * (zs + zl); k++) {
                b[k] = 0;
            }
            if (i % 7 == 0) {
                java.util.Arrays.fill(b, 0, 10, (byte) 0);
                b[10] = (byte) (i % 14 == 0 ? 0xFF : 0);
                b[11] = b[10];
            }
            Column c = roundTrip(t, List.of(b));
            String text = c.getString(0);
            assertThat(IPv6Type.parse(text)).as(text).isEqualTo(b);
            assertThat(InetAddress.getByName(text).getAddress()).as(text)
                    .isEqualTo(isMapped(b) ? java.util.Arrays.copyOfRange(b, 12, 16) : b);
            assertThat(((IPv6Column) c).getInetAddress(0).getAddress()).isEqualTo(b);
        }
    }

    private static boolean isMapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xFF && b[11] == (byte) 0xFF;
    }

    @Test
    void decimalAndTimeTextAndRoundTrips() throws IOException {
        Column d = roundTrip(parse("Decimal(38, 5)"), List.of("1.5", new BigDecimal("-0.00001"), 0,
                "-123456789012345678901234567890.12345", 7L));
        assertThat(List.of(d.getString(0), d.getString(1), d.getString(2), d.getString(3), d.getString(4)))
                .containsExactly("1.5", "-0.00001", "0", "-123456789012345678901234567890.12345", "7");
        assertThat(((DecimalColumn) d).getBigDecimal(3)).isEqualTo(new BigDecimal("-123456789012345678901234567890.12345"));
        Column t = roundTrip(parse("Time64(3)"), List.of("-100:00:01.5", Duration.ofMillis(-1), "999:59:59.9999", 0L));
        assertThat(List.of(t.getString(0), t.getString(1), t.getString(2), t.getString(3)))
                .containsExactly("-100:00:01.500", "-00:00:00.001", "999:59:59.999", "00:00:00.000");
        assertThat(((TimeColumn) t).getDuration(1)).isEqualTo(Duration.ofMillis(-1));
        Column big = roundTrip(parse("Time"), List.of(Integer.MAX_VALUE, Integer.MIN_VALUE));
        assertThat(big.getString(0)).isEqualTo("999:59:59");
        assertThat(big.getString(1)).isEqualTo("-999:59:59");
    }
}
