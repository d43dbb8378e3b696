package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/** Enum8 / Enum16: Int8 / Int16 values with names. The writer accepts names or numeric values. */
public final class EnumType extends DataType {
    private final int width;
    private final Map<Integer, String> names = new HashMap<>();
    private final Map<String, Integer> values = new HashMap<>();
    /** The value written for a default or NULL row: the smallest value. */
    private final int defaultValue;

    EnumType(String name, int width, TypeNode node) {
        super(name);
        this.width = width;
        for (TypeNode.Param p : node.params()) {
            if (!(p instanceof TypeNode.EnumParam e)) {
                throw new ClickHouseTypeException("malformed enum type " + name);
            }
            long lim = width == 1 ? 127 : 32767;
            if (e.value() < -lim - 1 || e.value() > lim) {
                throw new ClickHouseTypeException("value " + e.value() + " of element '" + e.name() + "' does not fit "
                        + (width == 1 ? "Enum8" : "Enum16") + ": " + name);
            }
            names.put((int) e.value(), e.name());
            values.put(e.name(), (int) e.value());
        }
        this.defaultValue = names.keySet().stream().mapToInt(Integer::intValue).min().orElse(0);
    }

    /**
     * Resolves the generic {@code Enum(...)} family: elements without an explicit value are numbered
     * from the previous value plus one (the first from 1); the result is Enum8 when every value is in
     * [-128, 127], else Enum16, named canonically as the server reports it.
     */
    static EnumType generic(TypeNode n) {
        java.util.List<TypeNode.Param> params = new java.util.ArrayList<>();
        long next = 1;
        boolean narrow = true;
        for (TypeNode.Param p : n.params()) {
            TypeNode.EnumParam e;
            if (p instanceof TypeNode.EnumParam ep) {
                e = ep;
            } else if (p instanceof TypeNode.StringParam sp) {
                e = new TypeNode.EnumParam(sp.value(), next);
            } else {
                throw new ClickHouseTypeException("malformed enum type " + n);
            }
            if (e.value() < Short.MIN_VALUE || e.value() > Short.MAX_VALUE) {
                throw new ClickHouseTypeException("enum value " + e.value() + " out of range in " + n);
            }
            narrow &= e.value() >= Byte.MIN_VALUE && e.value() <= Byte.MAX_VALUE;
            next = e.value() + 1;
            params.add(e);
        }
        if (params.isEmpty()) {
            throw new ClickHouseTypeException("enum type without elements: " + n);
        }
        TypeNode canonical = new TypeNode(narrow ? "Enum8" : "Enum16", java.util.List.copyOf(params));
        return new EnumType(canonical.toString(), narrow ? 1 : 2, canonical);
    }

    /**
     * Bytes per value.
     *
     * @return 1 for Enum8, 2 for Enum16
     */
    public int width() {
        return width;
    }

    /**
     * The element name of {@code value}; an unknown value renders as its number.
     *
     * @param value a stored Int8 / Int16 value
     * @return the element's name, or the decimal text of {@code value} when no element has it
     */
    public String nameOf(int value) {
        String n = names.get(value);
        return n != null ? n : Integer.toString(value);
    }

    /**
     * Element names to values.
     *
     * @return an unmodifiable copy of the mapping, in no particular order
     */
    public Map<String, Integer> elements() {
        return Map.copyOf(values);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
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

            /**
             * The enum's default, its smallest value (ClickHouse's {@code DataTypeEnum::getDefault}: the first of
             * the values sorted by value), also under a NULL of {@code Nullable(Enum)}; 0 is not always a value.
             */
            @Override
            public void appendDefault() {
                putLong(defaultValue);
            }
        };
    }

    @Override
    int rowBinaryWidth() {
        return width();
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        for (Map.Entry<String, Integer> e : elements().entrySet()) {
            if (v instanceof CharSequence cs && e.getKey().equals(cs.toString())
                    || !strict && ValueTypes.isIntegral(v)
                    && BigInteger.valueOf(e.getValue()).equals(ValueTypes.toBig(v))) {
                return true;
            }
        }
        return false;
    }
}
