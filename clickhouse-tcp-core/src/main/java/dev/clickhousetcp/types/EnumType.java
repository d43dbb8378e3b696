package dev.clickhousetcp.types;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.EnumColumn;
import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** Enum8 / Enum16: Int8 / Int16 values with names. The writer accepts names or numeric values. */
public final class EnumType extends DataType {
    private final int width;
    private final Map<Integer, String> names = new HashMap<>();
    private final Map<String, Integer> values = new HashMap<>();

    EnumType(String name, int width, TypeNode node) {
        super(name);
        this.width = width;
        for (TypeNode.Param p : node.params()) {
            if (!(p instanceof TypeNode.EnumParam e)) {
                throw new ClickHouseTypeException("malformed enum type " + name);
            }
            names.put((int) e.value(), e.name());
            values.put(e.name(), (int) e.value());
        }
    }

    public int width() {
        return width;
    }

    /** The element name of {@code value}; an unknown value renders as its number. */
    public String nameOf(int value) {
        String n = names.get(value);
        return n != null ? n : Integer.toString(value);
    }

    /** Element names to values. */
    public Map<String, Integer> elements() {
        return Map.copyOf(values);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx) throws IOException {
        return new EnumColumn(this, rows, readFixed(in, rows, width, ctx, name));
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this, width) {
            @Override
            public void append(Object v) {
                Integer x;
                if (v instanceof String s) {
                    x = values.get(s);
                } else if (v instanceof Enum<?> e) {
                    x = values.get(e.name());
                } else if (v instanceof Number num) {
                    x = names.containsKey(num.intValue()) ? num.intValue() : null;
                } else {
                    throw ColumnWriter.cannotConvert(type, v);
                }
                if (x == null) {
                    throw new ClickHouseTypeException("'" + v + "' is not an element of " + type.name());
                }
                putLong(x);
            }
        };
    }
}
