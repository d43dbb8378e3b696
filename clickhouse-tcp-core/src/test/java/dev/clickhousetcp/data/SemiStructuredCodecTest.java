package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.protocol.BlockCodec;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Variant, Dynamic and JSON codecs on golden bytes. Blocks were captured from ClickHouse 26.7 with
 * {@code SELECT ... FORMAT Native} over HTTP with {@code client_protocol_version=54488} (the same bytes
 * a Data packet carries at that revision); the COMPACT discriminators and V1 prefixes, which the server
 * does not send over the wire, are built by hand from SerializationVariant/SerializationDynamic.
 */
class SemiStructuredCodecTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    private static ReadContext ctx() {
        return new ReadContext(DecodeLimits.DEFAULT, UTC, 54488, null);
    }

    private static BinaryReader reader(String hex) {
        byte[] b = HexFormat.of().parseHex(hex);
        return new BinaryReader(new ByteArrayInputStream(b), 64, 1 << 20);
    }

    private static Column block(String hex) throws IOException {
        Block b = BlockCodec.read(reader(hex), ctx(), Lifetime.FOREVER);
        return b.column(0);
    }

    private static List<String> texts(Column c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            out.add(c.getString(i));
        }
        return out;
    }

    /** {@code CAST(multiIf(...) AS Dynamic(max_types=2))}: Int64, String, then Float64 and Array(UInt8) in the shared variant, NULL. */
    @Test
    void dynamicV2WithSharedVariant() throws IOException {
        DynamicColumn d = (DynamicColumn) block("010002ffffffff030000010501641444796e616d6963286d61785f74797065733d3229"
                + "0002000000000000000205496e7436340653747269" + "6e67000000000000000000020101ff0100000000000000090e000000000000"
                + "f83f051e010201020161");
        assertThat(d.type().name()).isEqualTo("Dynamic(max_types=2)");
        assertThat(texts(d)).containsExactly("1", "a", "1.5", "[1,2]", null);
        assertThat(Arrays.asList(d.typeName(0), d.typeName(1), d.typeName(2), d.typeName(3), d.typeName(4)))
                .containsExactly("Int64", "String", "Float64", "Array(UInt8)", null);
        // getObject: plain where the Dynamic writer infers the same type, else with its type
        assertThat(d.getObject(0)).isEqualTo(1L);
        assertThat(d.getObject(2)).isEqualTo(1.5);
        assertThat(d.getObject(3)).isEqualTo(TypedValue.of("Array(UInt8)", List.of((short) 1, (short) 2)));
    }

    /** The same values with {@code output_format_native_use_flattened_dynamic_and_json_serialization = 1}. */
    @Test
    void dynamicFlattened() throws IOException {
        DynamicColumn d = (DynamicColumn) block("010002ffffffff030000010301640744796e616d69630003000000000000000205496e"
                + "74363406537472696e6700010201000000000000000161");
        assertThat(texts(d)).containsExactly("1", "a", null);
        assertThat(d.typeNames()).containsExactly("Int64", "String");
    }

    /** V1 is V2 with the max_types parameter first. */
    @Test
    void dynamicV1Prefix() throws IOException {
        DynamicType t = (DynamicType) DataTypes.parse("Dynamic", UTC);
        BinaryReader in = reader("0100000000000000" + "20" + "01" + "06537472696e67" + "0000000000000000" // prefix
                + "01ff" + "0178");
        DeserializationState state = t.readPrefix(in);
        assertThat(texts(t.read(in, 2, ctx(), state))).containsExactly("x", null);
    }

    @Test
    void unknownAndOnDiskVersionsAreRejected() {
        DynamicType d = (DynamicType) DataTypes.parse("Dynamic", UTC);
        assertThatThrownBy(() -> d.readPrefix(reader("0400000000000000")))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("V3");
        assertThatThrownBy(() -> d.readPrefix(reader("0900000000000000")))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("version 9");
        JsonType j = (JsonType) DataTypes.parse("JSON", UTC);
        assertThatThrownBy(() -> j.readPrefix(reader("0400000000000000")))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("V3");
        VariantType v = (VariantType) DataTypes.parse("Variant(String, UInt8)", UTC);
        assertThatThrownBy(() -> v.readPrefix(reader("0200000000000000")))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("mode 2");
        assertThatThrownBy(() -> {
            BinaryReader in = reader("0000000000000000" + "05");
            DeserializationState state = v.readPrefix(in);
            v.read(in, 1, ctx(), state);
        }).isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("discriminator 5");
    }

    /** {@code CAST('{"a":1,"b":"x","c":[1]}' AS JSON(max_dynamic_paths=1))}: path a dynamic, b and c in shared data. */
    @Test
    void jsonV2WithSharedData() throws IOException {
        JsonColumn j = (JsonColumn) block("010002ffffffff0300000101016a194a534f4e286d61785f64796e616d69635f7061746873"
                + "3d312900020000000000000001016102000000000000000105496e7436340000000000000000000100000000000000020000"
                + "000000000001620163031501780d1e230a01000100000000000000");
        assertThat(j.getString(0)).isEqualTo("{\"a\":1,\"b\":\"x\",\"c\":[1]}");
        assertThat(j.dynamicPaths()).containsExactly("a");
        assertThat(j.paths(0)).containsExactly("a", "b", "c");
        assertThat(j.getPathObject(0, "c")).isEqualTo(List.of(1L));
        assertThat(j.getObject(0)).isEqualTo(Map.of("a", 1L, "b", "x", "c", List.of(1L)));
    }

    /** COMPACT discriminators: granules of one repeated discriminator or plain bytes. */
    @Test
    void compactVariantDiscriminators() throws IOException {
        VariantType t = (VariantType) DataTypes.parse("Variant(UInt64, String)", UTC);
        assertThat(t.name()).isEqualTo("Variant(String, UInt64)");
        BinaryReader in = reader("0100000000000000"  // mode COMPACT
                + "02" + "01" + "01"                      // 2 rows, compact granule, discriminator 1 (UInt64)
                + "03" + "00" + "00ff01"                  // 3 rows, plain granule
                + "0171"                                  // String: 'q'
                + "0700000000000000" + "0800000000000000" + "0900000000000000");
        DeserializationState state = t.readPrefix(in);
        VariantColumn v = (VariantColumn) t.read(in, 5, ctx(), state);
        assertThat(texts(v)).containsExactly("7", "8", "q", null, "9");
        assertThat(v.discriminator(2)).isZero();
    }

    @Test
    void writersProduceTheServersBytes() throws IOException {
        DynamicType d = (DynamicType) DataTypes.parse("Dynamic", UTC);
        ColumnWriter w = d.newWriter();
        w.append(1L);
        w.append("a");
        w.append(null);
        // the server's own FLATTENED bytes for these values (see dynamicFlattened)
        assertThat(bytes(w)).isEqualTo("0300000000000000" + "0205496e74363406537472696e67" + "000102" + "0100000000000000"
                + "0161");
        VariantType v = (VariantType) DataTypes.parse("Variant(String, UInt64)", UTC);
        ColumnWriter vw = v.newWriter();
        vw.append(TypedValue.of("UInt64", 42));
        vw.append("hi");
        vw.append(null);
        // the NativeFormat.mdx example for Variant(String, UInt64) [42, 'hi', NULL]
        assertThat(bytes(vw)).isEqualTo("0000000000000000" + "0100ff" + "026869" + "2a00000000000000");
        JsonType j = (JsonType) DataTypes.parse("JSON", UTC);
        ColumnWriter jw = j.newWriter();
        jw.append(Map.of("a", 1L));
        assertThat(bytes(jw)).isEqualTo("0100000000000000" + "07" + HexFormat.of().formatHex("{\"a\":1}".getBytes()));
    }

    private static String bytes(ColumnWriter w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryWriter bw = new BinaryWriter(out, 1024);
        w.writePrefix(bw);
        w.writeData(bw);
        bw.flush();
        return HexFormat.of().formatHex(out.toByteArray());
    }

    @Test
    void dynamicWriterRoundTripsThroughItsOwnReader() throws IOException {
        DynamicType d = (DynamicType) DataTypes.parse("Dynamic", UTC);
        ColumnWriter w = d.newWriter();
        List<Object> values = Arrays.asList("s", 5, List.of(1L, 2L), null, TypedValue.of("Map(String, UInt8)", Map.of("k", 1)),
                TypedValue.of("Variant(String, UInt8)", "v"), TypedValue.of("JSON", Map.of("x", List.of(1.5))));
        values.forEach(w::append);
        BinaryReader in = reader(bytes(w));
        DeserializationState state = d.readPrefix(in);
        Column c = d.read(in, values.size(), ctx(), state);
        // JSON written as text reads back as text here (the server would parse it)
        assertThat(texts(c)).containsExactly("s", "5", "[1,2]", null, "{'k':1}", "v", "{\"x\":[1.5]}");
    }

    @Test
    void binaryTypeEncodings() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("2a021501", "Variant(String, UInt8)"),
                Map.entry("300003200101610301017800", "JSON(max_dynamic_paths=3, a UInt32, SKIP x)"),
                Map.entry("3403", "Time64(3)"), Map.entry("32", "Time"), Map.entry("2206", "IntervalDay"),
                Map.entry("2c05506f696e74", "Point"), Map.entry("2b05", "Dynamic(max_types=5)"), Map.entry("2b20", "Dynamic"),
                Map.entry("2623 15".replace(" ", ""), "LowCardinality(Nullable(String))"),
                Map.entry("1403035554 43".replace(" ", ""), "DateTime64(3, 'UTC')"),
                Map.entry("1702016101026227ff", "Enum8('a' = 1, 'b\\'' = -1)"),
                Map.entry("1b260a", "Decimal(38, 10)"), Map.entry("2f01016101", "Nested(a UInt8)"),
                Map.entry("200201610a03612062 15".replace(" ", ""), "Tuple(a Int64, `a b` String)"),
                Map.entry("270415", "Map(UInt64, String)"), Map.entry("360d08", "QBit(Float32, 8)"),
                Map.entry("2e0373756d000104", "SimpleAggregateFunction(sum, UInt64)"));
        for (Map.Entry<String, String> e : cases.entrySet()) {
            byte[] b = HexFormat.of().parseHex(e.getKey());
            Bytes.Cursor c = new Bytes.Cursor(b, 0, b.length);
            assertThat(BinaryTypes.decode(c)).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(c.atEnd()).as(e.getKey()).isTrue();
        }
        byte[] set = {0x21};
        assertThatThrownBy(() -> BinaryTypes.decode(new Bytes.Cursor(set, 0, 1)))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("0x21");
    }

    @Test
    void typeNamesWithTheirOwnParameterGrammar() {
        String json = "JSON(max_dynamic_types=5, a Int8, `z.y` UInt32, SKIP `b.c`, SKIP REGEXP 'q\\'r')";
        JsonType j = (JsonType) DataTypes.parse(json, UTC);
        assertThat(j.name()).isEqualTo(json);
        assertThat(j.typedPaths()).containsExactly("a", "z.y");
        assertThat(j.typedPathType("z.y").name()).isEqualTo("UInt32");
        assertThat(j.maxDynamicTypes()).isEqualTo(5);
        assertThat(j.maxDynamicPaths()).isEqualTo(1024);
        JsonType.Params p = JsonType.Params.parse(TypeNode.parse(json));
        assertThat(p.skipPaths()).containsExactly("b.c");
        assertThat(p.skipRegexps()).containsExactly("q'r");
        List<String[]> typed = new ArrayList<>();
        p.typedPathTypes().forEach((k, v) -> typed.add(new String[] {k, v}));
        assertThat(JsonType.nameFor(p.maxTypes(), p.maxPaths(), typed, p.skipPaths(), p.skipRegexps())).isEqualTo(json);
        assertThat(DataTypes.parse("Array(JSON(a.b UInt8))", UTC).name()).isEqualTo("Array(JSON(a.b UInt8))");
        assertThat(((DynamicType) DataTypes.parse("Dynamic(max_types=7)", UTC)).maxTypes()).isEqualTo(7);
        assertThat(DataTypes.parse("Dynamic", UTC).name()).isEqualTo("Dynamic");
        assertThatThrownBy(() -> DataTypes.parse("Dynamic(max_types=x)", UTC)).isInstanceOf(ClickHouseTypeException.class);
        assertThatThrownBy(() -> DataTypes.parse("Variant(Nullable(String))", UTC)).isInstanceOf(ClickHouseTypeException.class);
        assertThatThrownBy(() -> DataTypes.parse("Variant(String, String)", UTC)).isInstanceOf(ClickHouseTypeException.class);
        assertThat(DataTypes.parse("Geometry", UTC).name()).isEqualTo("Geometry");
    }

    @Test
    void jsonTextEscapingAndParsing() {
        StringBuilder sb = new StringBuilder();
        JsonText.appendString(sb, "a\u0000b/c\"d\\e\u001f\u007f\t\u2028é");
        assertThat(sb.toString()).isEqualTo("\"a\\u0000b\\/c\\\"d\\\\e\\u001F\u007f\\t\\u2028é\"");
        assertThat(JsonText.parse("{\"a\":[1,2.5,\"x\",true,null,{}],\"b\":18446744073709551615}"))
                .isEqualTo(Map.of("a", Arrays.asList(1L, 2.5, "x", true, null, Map.of()),
                        "b", new java.math.BigInteger("18446744073709551615")));
        assertThatThrownBy(() -> JsonText.parse("{\"a\":}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("position 5");
        assertThatThrownBy(() -> JsonText.parse("{} x")).isInstanceOf(IllegalArgumentException.class);
        StringBuilder j = new StringBuilder();
        JsonText.appendJava(j, Map.of("d", 3.0), UTC);
        assertThat(j.toString()).isEqualTo("{\"d\":3.0}");
    }
}
