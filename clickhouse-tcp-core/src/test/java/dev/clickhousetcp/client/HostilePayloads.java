package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.testsupport.FakeServer;

import java.time.Duration;

/**
 * Payloads of a few bytes from a hostile server that declare sizes within the default
 * {@code DecodeLimits}: a size or count the bytes that follow never back. Each is played by a
 * {@link FakeServer} (the real 18.16 server Hello, then the crafted packets, then a graceful close);
 * the client reads the answer on the block tier. Before buffers grew as bytes arrived, the first five
 * (the issue's) but {@code EMPTY_TUPLE_ROWS}, and {@code ARRAY_ROWS}, {@code STRING_ROWS},
 * {@code LOW_CARDINALITY_KEYS} and {@code FIXED_STRING_ELEMENTS} exhausted a 256 MiB heap; the others
 * happened to fit it or were rejected by a limit, and guard the same kinds. Before the expansion limit
 * ({@code DecodeLimits.maxExpansionBytes}), {@code VARIANT_COMPACT_DISCRIMINATORS}, a complete column
 * of a few bytes, exhausted it too; the sparse and replicated kinds, which the 18.16 Hello cannot
 * negotiate, are {@link HostileBlocks}.
 *
 * <p>{@link #main} runs one payload, read on the tier its second argument names ({@code blocks}, the
 * default; {@code rows}: {@code queryRows}; {@code mapped}: {@code query} with a {@code RowMapper}) with
 * {@code maxExpansionBytes} of its third argument in MiB when there is one, and prints one line, {@code OK <exception class> <millis> <pool
 * total> <message>} or {@code FAIL <what happened>}; {@link HostileInputTest} runs it in a JVM of its
 * own with {@code -Xmx256m}.
 */
public enum HostilePayloads {
    /** Issue payload 1: a Data block declaring 60,000,000 rows of UInt64, then 16 bytes. */
    UINT64_ROWS(out -> {
        out.dataHeader(1, 60_000_000).column("x", "UInt64");
        out.writeBytes(new byte[16]);
    }),
    /** Issue payload 2: a String whose length prefix is 200,000,000, then 3 bytes. */
    STRING_LENGTH(out -> {
        out.dataHeader(1, 1).column("x", "String");
        out.writeVarUInt(200_000_000).writeBytes(new byte[] {'a', 'b', 'c'});
    }),
    /** Issue payload 3: 60,000,000 rows of Tuple() (zero bytes per row), then the end of the stream. */
    EMPTY_TUPLE_ROWS(out -> out.dataHeader(1, 60_000_000).column("x", "Tuple()")),
    /** Issue payload 4: a Map whose offsets column ends at 200,000,000, then one key and one value. */
    MAP_OFFSETS(out -> {
        out.dataHeader(1, 1).column("x", "Map(String, String)");
        out.writeInt64(200_000_000);
        out.writeBytes(new byte[] {1, 'k', 1, 'v'});
    }),
    /** Issue payload 5: a column whose type name is Tuple( with 2,000,000 UInt8 elements. */
    WIDE_TUPLE_NAME(out -> {
        StringBuilder name = new StringBuilder("Tuple(");
        for (int i = 0; i < 2_000_000; i++) {
            name.append(i == 0 ? "" : ", ").append("UInt8");
        }
        out.dataHeader(1, 1).column("x", name.append(')').toString());
        out.writeBytes(new byte[64]);
    }),
    /** Array(UInt64) of one row whose offset ends at 200,000,000 elements, then 8 bytes. */
    ARRAY_OFFSETS(out -> {
        out.dataHeader(1, 1).column("x", "Array(UInt64)");
        out.writeInt64(200_000_000).writeInt64(1);
    }),
    /** 60,000,000 rows of Array(UInt8): the offsets column itself, of which 3 offsets arrive. */
    ARRAY_ROWS(out -> {
        out.dataHeader(1, 60_000_000).column("x", "Array(UInt8)");
        out.writeInt64(0).writeInt64(0).writeInt64(0);
    }),
    /** 60,000,000 rows of String, of which 3 (empty) arrive: the offsets array. */
    STRING_ROWS(out -> {
        out.dataHeader(1, 60_000_000).column("x", "String");
        out.writeBytes(new byte[3]);
    }),
    /** 60,000,000 rows of Nullable(Int64): the null map and the values, of which 3 bytes arrive. */
    NULLABLE_ROWS(out -> {
        out.dataHeader(1, 60_000_000).column("x", "Nullable(Int64)");
        out.writeBytes(new byte[3]);
    }),
    /** 60,000,000 rows of LowCardinality(String) with a one-entry dictionary, of which 3 keys arrive. */
    LOW_CARDINALITY_KEYS(out -> {
        out.dataHeader(1, 60_000_000).column("x", "LowCardinality(String)");
        out.writeInt64(1); // key serialization version: shared dictionaries with additional keys
        out.writeInt64(1L << 9); // index type: UInt8 keys, has additional keys
        out.writeInt64(1).writeVarUInt(1).writeUInt8('a'); // the dictionary: one String
        out.writeInt64(60_000_000);
        out.writeBytes(new byte[3]);
    }),
    /** 60,000,000 rows of Variant(String, UInt64), of which 3 discriminators arrive. */
    VARIANT_DISCRIMINATORS(out -> {
        out.dataHeader(1, 60_000_000).column("x", "Variant(String, UInt64)");
        out.writeInt64(0); // discriminators mode: basic
        out.writeBytes(new byte[3]);
    }),
    /** A 60,000,000-element FixedString(4) Array row: 240 MB declared, 16 bytes sent. */
    FIXED_STRING_ELEMENTS(out -> {
        out.dataHeader(1, 1).column("x", "Array(FixedString(4))");
        out.writeInt64(60_000_000);
        out.writeBytes(new byte[16]);
    }),
    /** A server Exception packet whose message declares 200,000,000 bytes, of which 3 arrive. */
    EXCEPTION_MESSAGE(out -> {
        out.writeVarUInt(2).writeInt32(1).writeString("DB::Exception");
        out.writeVarUInt(200_000_000).writeBytes(new byte[] {'a', 'b', 'c'});
    }),
    /** A column name declaring 200,000,000 bytes, of which 3 arrive. */
    COLUMN_NAME(out -> {
        out.dataHeader(1, 1);
        out.writeVarUInt(200_000_000).writeBytes(new byte[] {'a', 'b', 'c'});
    }),
    /** A type name declaring 200,000,000 bytes, of which 3 arrive. */
    TYPE_NAME_LENGTH(out -> {
        out.dataHeader(1, 1).writeString("x");
        out.writeVarUInt(200_000_000).writeBytes(new byte[] {'a', 'b', 'c'});
    }),
    /**
     * 60,000,000 rows of Variant(String, UInt64) in compact discriminators mode: one granule of all the
     * rows whose one discriminator is NULL, so no values follow. A complete block of 12 bytes whose
     * dense form (a discriminator and an offset per row) is 300 MB.
     */
    VARIANT_COMPACT_DISCRIMINATORS(out -> {
        out.dataHeader(1, 60_000_000).column("x", "Variant(String, UInt64)");
        out.writeInt64(1); // discriminators mode: compact
        out.writeVarUInt(60_000_000).writeUInt8(1).writeUInt8(255); // one compact granule of NULLs
    }),
    /** One row of Array(Tuple()) whose offset ends at 200,000,000 zero-width elements: a complete block. */
    ARRAY_OF_EMPTY_TUPLES(out -> {
        out.dataHeader(1, 1).column("x", "Array(Tuple())");
        out.writeInt64(200_000_000);
    }),
    /** 60,000,000 rows of a block of no columns: nothing follows the row count. */
    ZERO_COLUMN_ROWS(out -> out.dataHeader(0, 60_000_000)),
    /** 60,000,000 rows of Tuple(a Tuple(), b Tuple()): two zero-width values per row, no bytes. */
    TUPLE_OF_EMPTY_TUPLES(out -> out.dataHeader(1, 60_000_000).column("x", "Tuple(a Tuple(), b Tuple())")),
    /** One row of Map(Tuple(), Tuple()) whose offset ends at 200,000,000 zero-width entries: a complete block. */
    MAP_OF_EMPTY_TUPLES(out -> {
        out.dataHeader(1, 1).column("x", "Map(Tuple(), Tuple())");
        out.writeInt64(200_000_000);
    }),
    /**
     * 60 Data blocks of 1,000,000 rows of Tuple() each, no bytes per row: each block within what one
     * block may build, the result kept whole far beyond it.
     */
    EMPTY_TUPLE_BLOCKS(out -> {
        for (int i = 0; i < 60; i++) {
            out.dataHeader(1, 1_000_000).column("x", "Tuple()");
        }
    }),
    /** A type name nested 10,000 deep (Array(Array(...))), within the length limit. */
    DEEP_TYPE_NAME(out -> {
        out.dataHeader(1, 1).column("x", "Array(".repeat(10_000) + "UInt8" + ")".repeat(10_000));
        out.writeBytes(new byte[64]);
    });

    final FakeServer.Script script;

    HostilePayloads(FakeServer.Script script) {
        this.script = script;
    }

    /** Runs the payload named by {@code args[0]} and prints the outcome line. */
    public static void main(String[] args) throws Exception {
        HostilePayloads payload = valueOf(args[0]);
        String tier = args.length > 1 ? args[1] : "blocks";
        DecodeLimits limits = args.length > 2 ? DecodeLimits.DEFAULT.withMaxExpansionBytes(Long.parseLong(args[2]) << 20)
                : DecodeLimits.DEFAULT;
        String line;
        try (FakeServer server = FakeServer.start(payload.script);
             ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(server.port())
                     .compression(Compression.NONE).socketTimeout(Duration.ofSeconds(20)).limits(limits).build()) {
            long start = System.nanoTime();
            try {
                long rows = switch (tier) {
                    case "rows" -> client.queryRows("SELECT x").size();
                    case "mapped" -> client.query("SELECT x", (row, n) -> row.columnCount() == 0 ? n : row.getObject(0))
                        .size();
                    default -> blockRows(client);
                };
                line = "FAIL no exception after " + rows + " rows";
            } catch (ClickHouseException e) {
                long millis = (System.nanoTime() - start) / 1_000_000;
                line = "OK " + e.getClass().getName() + " " + millis + " " + client.poolStats().total() + " "
                        + String.valueOf(e.getMessage()).replace('\n', ' ');
            } catch (Throwable t) {
                line = "FAIL " + t;
            }
        }
        System.out.println(line);
        System.out.flush();
        System.exit(0);
    }

    /** Reads the answer on the block tier; the rows it counted. */
    private static long blockRows(ClickHouseTcpClient client) {
        try (QueryResult r = client.query("SELECT x")) {
            long rows = 0;
            Block b;
            while ((b = r.next()) != null) {
                rows += b.rowCount();
            }
            return rows;
        }
    }
}
