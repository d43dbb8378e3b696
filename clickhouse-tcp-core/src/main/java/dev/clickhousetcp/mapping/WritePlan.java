package dev.clickhousetcp.mapping;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.ArrayType;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DateTime64Type;
import dev.clickhousetcp.data.DateTimeType;
import dev.clickhousetcp.data.DateType;
import dev.clickhousetcp.data.EnumType;
import dev.clickhousetcp.data.FixedStringType;
import dev.clickhousetcp.data.LowCardinalityType;
import dev.clickhousetcp.data.MapType;
import dev.clickhousetcp.data.NullableType;
import dev.clickhousetcp.data.NumberType;
import dev.clickhousetcp.data.StringType;
import dev.clickhousetcp.data.TupleType;
import dev.clickhousetcp.data.UuidType;

import java.lang.reflect.Type;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * How objects of one class fill the column writers of one insert header (column names and types in
 * the server's order): per column a compiled getter and one loop over the window's objects that
 * appends their values (primitive properties without boxing into numeric columns). Built once per
 * (class, header) by {@link Mappers} and cached; immutable and thread-safe.
 *
 * @param <T> the mapped class
 */
public final class WritePlan<T> {
    private final Class<T> type;
    private final String[] where;
    private final Object[] getters;
    private final boolean[] enumAsName;
    private final boolean[] unwrapOptional;

    private WritePlan(Class<T> type, String[] where, Object[] getters, boolean[] enumAsName, boolean[] unwrapOptional) {
        this.type = type;
        this.where = where;
        this.getters = getters;
        this.enumAsName = enumAsName;
        this.unwrapOptional = unwrapOptional;
    }

    /**
     * The mapped class.
     *
     * @return the class whose objects the plan reads
     */
    public Class<T> type() {
        return type;
    }

    static <T> WritePlan<T> build(Class<T> type, List<String> names, List<DataType> types, MappingConfig cfg) {
        AccessMode mode = cfg.accessMode().resolve();
        TypeModel m = TypeModel.of(type);
        List<String> problems = new ArrayList<>();
        String[] where = new String[names.size()];
        Object[] getters = new Object[names.size()];
        boolean[] enumAsName = new boolean[names.size()];
        boolean[] unwrap = new boolean[names.size()];
        List<Prop> used = new ArrayList<>();
        for (int c = 0; c < names.size(); c++) {
            Prop p;
            try {
                p = Names.match(names.get(c), m.readable, "properties of " + type.getSimpleName());
            } catch (MappingException e) {
                problems.add(e.getMessage());
                continue;
            }
            DataType t = types.get(c);
            if (p == null) {
                problems.add("column '" + names.get(c) + "' (" + t.name() + ") has no readable property in "
                        + type.getSimpleName());
                continue;
            }
            if (used.contains(p)) {
                problems.add("several columns map to " + p.describe());
                continue;
            }
            used.add(p);
            where[c] = "column '" + names.get(c) + "' (" + t.name() + ") <- " + p.describe();
            String why = problem(t, p.type);
            if (why != null) {
                problems.add(where[c] + ": cannot convert to ClickHouse " + t.name() + (why.isEmpty() ? "" : " (" + why + ")"));
                continue;
            }
            DataType base = base(t);
            enumAsName[c] = p.raw.isEnum() && (base instanceof StringType || base instanceof FixedStringType);
            unwrap[c] = p.raw == Optional.class && !t.isNullable();
            getters[c] = Accessors.getter(mode, p);
        }
        if (!problems.isEmpty()) {
            throw new MappingException("cannot insert " + type.getName() + " into columns "
                    + ReadPlan.describe(names, types) + ":\n  " + String.join("\n  ", problems));
        }
        return new WritePlan<>(type, where, getters, enumAsName, unwrap);
    }

    /**
     * Appends the values of {@code rows[0, n)} to {@code writers} (one per header column, in header
     * order). Stops at the first failing value: the writers of earlier columns (and this one, up to
     * that row) have then already been appended to.
     *
     * @param rows     the objects to insert, instances of the mapped class; {@code rows[0, n)} must not be
     *                 {@code null}
     * @param n        how many leading elements of {@code rows} to append
     * @param writers  the insert block's column writers, one per header column in header order
     * @param firstRow the number of {@code rows[0]} in the whole insert, for error messages
     * @throws MappingException when a value cannot be converted, naming row, column and property
     */
    public void append(Object[] rows, int n, ColumnWriter[] writers, long firstRow) {
        for (int c = 0; c < getters.length; c++) {
            ColumnWriter w = writers[c];
            Object g = getters[c];
            int r = 0;
            try {
                if (g instanceof Access.LongGetter lg) {
                    for (; r < n; r++) {
                        w.appendLong(lg.get(rows[r]));
                    }
                } else if (g instanceof Access.IntGetter ig) {
                    for (; r < n; r++) {
                        w.appendLong(ig.get(rows[r]));
                    }
                } else if (g instanceof Access.DoubleGetter dg) {
                    for (; r < n; r++) {
                        w.appendDouble(dg.get(rows[r]));
                    }
                } else if (g instanceof Access.ObjectGetter og) {
                    boolean en = enumAsName[c];
                    boolean un = unwrapOptional[c];
                    for (; r < n; r++) {
                        Object v = og.get(rows[r]);
                        if (un && v instanceof Optional<?> o) {
                            v = o.orElse(null);
                        }
                        if (en && v instanceof Enum<?> e) {
                            v = e.name();
                        }
                        w.append(v);
                    }
                } else if (g instanceof Access.FloatGetter fg) {
                    for (; r < n; r++) {
                        w.appendDouble(fg.get(rows[r]));
                    }
                } else if (g instanceof Access.ShortGetter sg) {
                    for (; r < n; r++) {
                        w.appendLong(sg.get(rows[r]));
                    }
                } else if (g instanceof Access.ByteGetter bg) {
                    for (; r < n; r++) {
                        w.appendLong(bg.get(rows[r]));
                    }
                } else {
                    Access.BooleanGetter bg = (Access.BooleanGetter) g;
                    for (; r < n; r++) {
                        w.append(bg.get(rows[r]) ? Boolean.TRUE : Boolean.FALSE);
                    }
                }
            } catch (ClickHouseTypeException | ClassCastException | ArithmeticException e) {
                throw new MappingException("row " + (firstRow + r) + ", " + where[c] + ": " + e.getMessage(), e);
            } catch (NullPointerException e) {
                if (rows[r] == null) {
                    throw new MappingException("row " + (firstRow + r) + " is null", e);
                }
                throw e;
            }
        }
    }

    static DataType base(DataType t) {
        while (true) {
            if (t instanceof NullableType n) {
                t = n.nested();
            } else if (t instanceof LowCardinalityType l) {
                t = l.inner();
            } else {
                return t;
            }
        }
    }

    /**
     * Why a Java property of type {@code jt} cannot be inserted into a column of {@code t}: {@code null}
     * when it can, else a short reason (possibly empty). Types this check does not know are accepted;
     * their writer converts or rejects each value.
     */
    static String problem(DataType t, Type jt) {
        Class<?> raw = Extractors.raw(jt);
        if (raw == Optional.class) {
            return problem(t, Extractors.typeArg(jt, 0));
        }
        if (raw == Object.class) {
            return null;
        }
        DataType b = base(t);
        boolean number = raw.isPrimitive() && raw != char.class && raw != boolean.class
                || Number.class.isAssignableFrom(raw);
        boolean bool = raw == boolean.class || raw == Boolean.class;
        boolean text = raw == String.class || CharSequence.class.isAssignableFrom(raw);
        if (b instanceof NumberType nt) {
            if (nt.kind() == NumberType.Kind.FLOAT32 || nt.kind() == NumberType.Kind.FLOAT64) {
                return number || text ? null : "";
            }
            return number || bool || text ? null : "";
        }
        if (b instanceof StringType || b instanceof FixedStringType) {
            return text || raw == byte[].class || raw.isEnum() ? null : "";
        }
        if (b instanceof EnumType) {
            return text || raw.isEnum() || number ? null : "";
        }
        if (b instanceof DateType) {
            return raw == LocalDate.class || raw == LocalDateTime.class || raw == Instant.class
                    || raw == ZonedDateTime.class || raw == OffsetDateTime.class || java.util.Date.class.isAssignableFrom(raw)
                    || text || number && raw != double.class && raw != float.class ? null : "";
        }
        if (b instanceof DateTimeType || b instanceof DateTime64Type) {
            return raw == Instant.class || raw == ZonedDateTime.class || raw == OffsetDateTime.class
                    || raw == LocalDateTime.class || raw == LocalDate.class || java.util.Date.class.isAssignableFrom(raw)
                    || text || raw == long.class || raw == Long.class || raw == int.class || raw == Integer.class
                    ? null : Temporal.class.isAssignableFrom(raw) ? "not an instant" : "";
        }
        if (b instanceof UuidType) {
            return raw == UUID.class || text ? null : "";
        }
        if (b instanceof ArrayType at) {
            if (raw.isArray()) {
                Class<?> comp = raw.getComponentType();
                if (comp.isPrimitive()) {
                    return problem(at.element(), comp);
                }
                return problem(at.element(), Extractors.componentType(jt));
            }
            if (Iterable.class.isAssignableFrom(raw)) {
                return problem(at.element(), Extractors.typeArg(jt, 0));
            }
            return "an Array takes a Java array or an Iterable";
        }
        if (b instanceof MapType mt) {
            if (!Map.class.isAssignableFrom(raw)) {
                return "a Map takes a java.util.Map";
            }
            String k = problem(mt.keyType(), Extractors.typeArg(jt, 0));
            return k != null ? k : problem(mt.valueType(), Extractors.typeArg(jt, 1));
        }
        if (b instanceof TupleType tt) {
            if (raw.isRecord() || List.class.isAssignableFrom(raw) || raw.isArray()) {
                return null;
            }
            boolean named = tt.isNamed();
            if (named && (Map.class.isAssignableFrom(raw) || !raw.isPrimitive() && !raw.isEnum()
                    && !raw.getName().startsWith("java."))) {
                return null;
            }
            return named ? "a named Tuple takes a record, a JavaBean, a Map, a List or an array"
                    : "an unnamed Tuple takes a record, a List or an array";
        }
        return null;
    }
}
