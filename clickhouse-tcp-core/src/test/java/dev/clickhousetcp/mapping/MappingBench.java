package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.Float64Column;
import dev.clickhousetcp.data.Int32Column;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.StringColumn;
import dev.clickhousetcp.data.TestColumns;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A quick local comparison of the access modes (not a test; run its main method). Maps an in-memory
 * block of 65 536 rows (Int64, Float64, String, Int32) to a record and to a bean, and fills insert
 * writers from records, in each {@link AccessMode} and by hand; prints nanoseconds per row.
 */
public final class MappingBench {
    public record Rec(long id, double price, String name, int qty) {
    }

    public static final class Bean {
        private long id;
        private double price;
        private String name;
        private int qty;

        public void setId(long id) {
            this.id = id;
        }

        public void setPrice(double price) {
            this.price = price;
        }

        public void setName(String name) {
            this.name = name;
        }

        public void setQty(int qty) {
            this.qty = qty;
        }

        long sum() {
            return id + (long) price + name.length() + qty;
        }
    }

    static final int ROWS = 65_536;

    public static void main(String[] args) {
        List<String> names = List.of("id", "price", "name", "qty");
        List<DataType> types = new ArrayList<>();
        for (String t : List.of("Int64", "Float64", "String", "Int32")) {
            types.add(DataTypes.parse(t, ZoneOffset.UTC));
        }
        ByteBuffer ids = ByteBuffer.allocate(ROWS * 8).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer prices = ByteBuffer.allocate(ROWS * 8).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer qtys = ByteBuffer.allocate(ROWS * 4).order(ByteOrder.LITTLE_ENDIAN);
        StringBuilder sb = new StringBuilder();
        int[] offsets = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            ids.putLong(i);
            prices.putDouble(i * 0.5);
            qtys.putInt(i % 1000);
            sb.append("name-").append(i % 5000);
            offsets[i] = sb.length();
        }
        byte[] str = sb.toString().getBytes(StandardCharsets.US_ASCII);
        Block block = new Block(names.toArray(new String[0]), new Column[] {
            TestColumns.int64(types.get(0), ROWS, ids.array(), false),
            TestColumns.float64(types.get(1), ROWS, prices.array()),
            TestColumns.string(types.get(2), ROWS, str, offsets),
            TestColumns.int32(types.get(3), ROWS, qtys.array(), false)}, ROWS, Lifetime.FOREVER);

        for (int round = 0; round < 4; round++) {
            System.out.println("--- round " + round);
            report("read record  by hand", () -> {
                long s = 0;
                Int64Column a = (Int64Column) block.column(0);
                Float64Column b = (Float64Column) block.column(1);
                StringColumn c = (StringColumn) block.column(2);
                Int32Column d = (Int32Column) block.column(3);
                for (int i = 0; i < ROWS; i++) {
                    Rec r = new Rec(a.getLong(i), b.getDouble(i), c.getString(i), d.getRaw(i));
                    s += r.id() + r.qty();
                }
                return s;
            });
            for (AccessMode mode : List.of(AccessMode.LAMBDA, AccessMode.METHOD_HANDLES, AccessMode.REFLECTION)) {
                Mappers m = new Mappers(MappingConfig.DEFAULT.withAccessMode(mode));
                ReadPlan<Rec> rp = m.readPlan(Rec.class, names, types);
                report("read record  " + mode, () -> {
                    long[] s = {0};
                    rp.newReader().read(block, r -> s[0] += r.id() + r.qty());
                    return s[0];
                });
                ReadPlan<Bean> bp = m.readPlan(Bean.class, names, types);
                report("read bean    " + mode, () -> {
                    long[] s = {0};
                    bp.newReader().read(block, b -> s[0] += b.sum());
                    return s[0];
                });
            }
            Object[] recs = new Object[ROWS];
            for (int i = 0; i < ROWS; i++) {
                recs[i] = new Rec(i, i * 0.5, "name-" + (i % 5000), i % 1000);
            }
            ColumnWriter[] w = new ColumnWriter[4];
            for (int i = 0; i < 4; i++) {
                w[i] = types.get(i).newWriter();
            }
            report("write record by hand", () -> {
                for (int i = 0; i < ROWS; i++) {
                    Rec r = (Rec) recs[i];
                    w[0].appendLong(r.id());
                    w[1].appendDouble(r.price());
                    w[2].append(r.name());
                    w[3].appendLong(r.qty());
                }
                int n = w[0].size();
                Arrays.stream(w).forEach(ColumnWriter::reset);
                return n;
            });
            for (AccessMode mode : List.of(AccessMode.LAMBDA, AccessMode.METHOD_HANDLES, AccessMode.REFLECTION)) {
                Mappers m = new Mappers(MappingConfig.DEFAULT.withAccessMode(mode));
                WritePlan<Rec> wp = m.writePlan(Rec.class, names, types);
                report("write record " + mode, () -> {
                    wp.append(recs, ROWS, w, 0);
                    int n = w[0].size();
                    Arrays.stream(w).forEach(ColumnWriter::reset);
                    return n;
                });
            }
        }
    }

    interface Task {
        long run();
    }

    static void report(String name, Task t) {
        long sink = 0;
        for (int i = 0; i < 200; i++) {
            sink += t.run();
        }
        long[] ns = new long[30];
        for (int i = 0; i < ns.length; i++) {
            long t0 = System.nanoTime();
            sink += t.run();
            ns[i] = System.nanoTime() - t0;
        }
        Arrays.sort(ns);
        System.out.printf("%-34s %6.1f ns/row  (median of %d blocks; %d)%n", name, (double) ns[ns.length / 2] / ROWS,
                ns.length, sink & 1);
    }
}
