package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.IPv4Column;
import dev.clickhousetcp.data.IPv6Column;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** IPv4 and IPv6 against ClickHouse 26.7 (18.16 has neither type). */
@ClickHouseTest
class IpAddressTypesTest {
    static final List<String> V6_TEXTS = List.of("::1", "::", "1.2.3.4", "2001:db8::ff00:42:8329", "1:0:2:3:4:5:6:7",
            "::1.2.3.4", "::ffff:0.0.0.0", "0:0:0:0:0:ffff:102:304", "1::", "1:2:3:4:5:6:7:8", "::ffff:ffff:1",
            "64:ff9b::1.2.3.4", "abcd:ef01::", "::0.0.1.0", "::1:0:0:0", "1:0:0:0:0:0:0:0", "2001:db8:0:0:1:0:0:1",
            "1:0:0:2:0:0:0:3", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::abcd:12", "0:0:0:0:0:0:0:2",
            "::ffff:1.2.3.4");

    @Test
    void valuesPrintLikeTheServer() {
        List<String> exprs = new ArrayList<>(List.of("toIPv4('1.2.3.4')", "toIPv4('0.0.0.0')", "toIPv4('255.255.255.255')",
                "toIPv4('10.0.0.1')", "CAST(NULL AS Nullable(IPv4))", "[toIPv4('1.1.1.1'), toIPv4('8.8.8.8')]",
                "tuple(toIPv4('1.1.1.1'), toIPv6('::1'))", "map(toIPv4('1.1.1.1'), toIPv6('fe80::1'))",
                "CAST(NULL AS Nullable(IPv6))", "[toIPv6('::1'), toIPv6('1.2.3.4')]"));
        for (String s : V6_TEXTS) {
            exprs.add("toIPv6('" + s + "')");
        }
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThat(ServerTypeChecks.printMismatches(client, exprs)).isEmpty();
            assertThat(ServerTypeChecks.manyRowsMismatches(client, List.of("toIPv4(toUInt32(number * 2654435761))",
                    "toIPv6(reinterpretAsFixedString(sipHash128(number)))",
                    "toIPv6(toFixedString(unhex(concat(repeat('0', 12 + 4 * (number % 5)), "
                            + "lpad(hex(number * 7919), 20 - 4 * (number % 5), '0'))), 16))"),
                    20000)).isEmpty();
        }
    }

    @Test
    void javaObjectsWithoutNameLookups() throws Exception {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (QueryResult r = client.query("SELECT toIPv4('1.2.3.4'), toIPv6('::ffff:1.2.3.4'), toIPv6('2001:db8::1')")) {
                Block b = r.next();
                IPv4Column v4 = (IPv4Column) b.column(0);
                assertThat(v4.getLong(0)).isEqualTo(0x01020304L);
                assertThat(v4.getBytes(0)).containsExactly(1, 2, 3, 4);
                assertThat(v4.getObject(0)).isInstanceOf(Inet4Address.class)
                        .isEqualTo(InetAddress.getByAddress(new byte[] {1, 2, 3, 4}));
                IPv6Column v6 = (IPv6Column) b.column(1);
                assertThat(v6.getObject(0)).isInstanceOf(Inet6Address.class);
                assertThat(v6.getInetAddress(0).getHostAddress()).isEqualTo("0:0:0:0:0:ffff:102:304");
                IPv6Column doc = (IPv6Column) b.column(2);
                assertThat(doc.getHigh(0)).isEqualTo(0x20010db800000000L);
                assertThat(doc.getLow(0)).isEqualTo(1L);
                assertThat(doc.getBytes(0)[0]).isEqualTo((byte) 0x20);
                r.drain(); // read to the end: the connection goes back to the pool clean
            }
        }
    }

    @Test
    void insertRoundTrips() {
        ClickHouseServer server = ClickHouseServers.modern();
        Map<String, List<String>> types = new LinkedHashMap<>();
        types.put("IPv4", List.of("'1.2.3.4'", "'0.0.0.0'", "'255.255.255.255'"));
        List<String> v6 = new ArrayList<>();
        for (String s : V6_TEXTS) {
            v6.add("'" + s + "'");
        }
        types.put("IPv6", v6);
        types.put("Nullable(IPv4)", List.of("NULL", "'9.9.9.9'"));
        types.put("Array(IPv6)", List.of("['::1', '1.2.3.4']", "[]"));
        types.put("Map(IPv4, IPv6)", List.of("map('1.1.1.1', '::2')"));
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            assertThat(ServerTypeChecks.roundTripMismatches(client, server, types)).isEmpty();
        }
    }

    @Test
    void javaValuesAndColumnarInsert() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("ip");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, a IPv4, b IPv6) ENGINE = Memory");
            try {
                client.insert(t, List.of(), List.of(
                        new Object[] {0, InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), InetAddress.getByName("::1")},
                        new Object[] {1, "192.168.1.254", InetAddress.getByAddress(new byte[] {1, 2, 3, 4})},
                        new Object[] {2, 0xFFFFFFFFL, "2001:DB8::FF00:42:8329"},
                        new Object[] {3, new byte[] {127, 0, 0, 1}, "::ffff:10.1.2.3"},
                        new Object[] {4, 16909060, "64:ff9b::1.2.3.4"}));
                assertThat(server.httpQuery("SELECT id, a, b FROM " + t + " ORDER BY id FORMAT TSV")).isEqualTo(
                        "0\t10.0.0.1\t::1\n1\t192.168.1.254\t::ffff:1.2.3.4\n2\t255.255.255.255\t2001:db8::ff00:42:8329\n"
                                + "3\t127.0.0.1\t::ffff:10.1.2.3\n4\t1.2.3.4\t64:ff9b::102:304\n");
                int n = 3000;
                int[] ids = new int[n];
                List<String> a = new ArrayList<>();
                List<Inet6Address> b = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ids[i] = 10 + i;
                    a.add("10." + (i >> 8) + "." + (i & 0xFF) + ".1");
                    byte[] addr = new byte[16];
                    addr[0] = 0x20;
                    addr[1] = 0x01;
                    addr[14] = (byte) (i >> 8);
                    addr[15] = (byte) i;
                    b.add(Inet6Address.getByAddress(null, addr, -1));
                }
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("id", ids);
                cols.put("a", a);
                cols.put("b", b);
                assertThat(client.insertColumns(t, cols)).isEqualTo(n);
                assertThat(server.httpQuery("SELECT count(), countIf(toString(a) = concat('10.', toString(intDiv(id - 10, 256)), '.', "
                        + "toString((id - 10) % 256), '.1')), countIf(b = toIPv6(concat('2001::', lower(hex(toUInt16(id - 10)))))) "
                        + "FROM " + t + " WHERE id >= 10").trim()).isEqualTo(n + "\t" + n + "\t" + n);
                for (Object bad : new Object[] {"1.2.3", "256.1.1.1", "example.invalid", 1L << 32, -1}) {
                    assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {5, bad, "::"})))
                            .as(String.valueOf(bad)).isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("IPv4");
                }
                for (Object bad : new Object[] {"1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "localhost"}) {
                    assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {5, "1.1.1.1", bad})))
                            .as(String.valueOf(bad)).isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("IPv6");
                }
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Integer.toString(n + 5));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
