package dev.clickhousetcp.mapping;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How rows of one result shape (column names and ClickHouse types) become objects of one class:
 * for each mapped column one compiled loop ({@link Extractor}) converting the whole column of a
 * block, then either one constructor call per row (records, constructor binding) or one no-arg
 * constructor call per row followed by one setter loop per column. Built once per (class, shape) by
 * {@link Mappers} and cached; immutable and thread-safe. {@link #newReader()} gives the per-query,
 * single-threaded state.
 *
 * @param <T> the mapped class
 */
public final class ReadPlan<T> {
    private final Class<T> type;
    private final boolean scalar;
    private final int[] paramColumn;
    private final Extractor[] paramEx;
    private final String[] paramWhere;
    private final Access.RowConstructor ctor;
    private final Access.Instantiator instantiator;
    private final int[] propColumn;
    private final Extractor[] propEx;
    private final String[] propWhere;
    private final Object[] setters;

    private ReadPlan(Class<T> type, boolean scalar, int[] paramColumn, Extractor[] paramEx, String[] paramWhere,
                     Access.RowConstructor ctor, Access.Instantiator instantiator, int[] propColumn, Extractor[] propEx,
                     String[] propWhere, Object[] setters) {
        this.type = type;
        this.scalar = scalar;
        this.paramColumn = paramColumn;
        this.paramEx = paramEx;
        this.paramWhere = paramWhere;
        this.ctor = ctor;
        this.instantiator = instantiator;
        this.propColumn = propColumn;
        this.propEx = propEx;
        this.propWhere = propWhere;
        this.setters = setters;
    }

    /**
     * The mapped class.
     *
     * @return the class rows are mapped to
     */
    public Class<T> type() {
        return type;
    }

    /**
     * A reader for one query's blocks; not thread-safe.
     *
     * @return a new reader with its own lane arrays
     */
    public Reader<T> newReader() {
        return new Reader<>(this);
    }

    static String where(String column, DataType t, Prop p) {
        return "column '" + column + "' (" + t.name() + ") -> " + p.describe();
    }

    /** Whether {@code type} is read as a single value (a one-column result) rather than as an object with properties. */
    static boolean isScalar(Class<?> type) {
        return type.isPrimitive() || type.isArray() || type.isEnum() || type.isInterface()
                || type.getName().startsWith("java.");
    }

    static <T> ReadPlan<T> build(Class<T> type, List<String> names, List<DataType> types, MappingConfig cfg) {
        AccessMode mode = cfg.accessMode().resolve();
        if (isScalar(type)) {
            if (names.size() != 1) {
                throw new MappingException("a result of " + names.size() + " columns " + names + " cannot be mapped to "
                        + type.getName() + ", which is read as a single value; select one column");
            }
            Extractor ex = Extractors.of(types.get(0), type,
                    new Extractors.Ctx(mode, "column '" + names.get(0) + "' (" + types.get(0).name() + ") -> "
                            + type.getName()));
            if (ex.lane != Lane.OBJECT) {
                ex = new BoxingExtractor(ex);
            }
            return new ReadPlan<>(type, true, new int[] {0}, new Extractor[] {ex},
                    new String[] {"column '" + names.get(0) + "' (" + types.get(0).name() + ") -> " + type.getName()},
                    null, null, new int[0], new Extractor[0], new String[0], new Object[0]);
        }
        TypeModel m = TypeModel.of(type);
        if (m.notCreatable != null) {
            throw new MappingException("cannot map rows to " + type.getName() + ": " + m.notCreatable);
        }
        List<Prop> candidates = new ArrayList<>(m.params);
        for (Prop w : m.writable) {
            boolean shadowed = false;
            for (Prop p : m.params) {
                if (p.name.equals(w.name)) {
                    shadowed = true;
                    break;
                }
            }
            if (!shadowed) {
                candidates.add(w);
            }
        }
        List<String> problems = new ArrayList<>();
        Prop[] assigned = new Prop[names.size()];
        List<Prop> taken = new ArrayList<>();
        for (int c = 0; c < names.size(); c++) {
            Prop p;
            try {
                p = Names.match(names.get(c), candidates, "properties of " + type.getSimpleName());
            } catch (MappingException e) {
                problems.add(e.getMessage());
                continue;
            }
            if (p == null) {
                if (cfg.unmappedColumns() == UnmappedColumns.FAIL) {
                    problems.add("column '" + names.get(c) + "' (" + types.get(c).name() + ") has no property in "
                            + type.getSimpleName());
                }
                continue;
            }
            if (taken.contains(p)) {
                problems.add("columns '" + names.get(indexOf(assigned, p)) + "' and '" + names.get(c)
                        + "' both map to " + p.describe());
                continue;
            }
            taken.add(p);
            assigned[c] = p;
        }
        for (Prop p : m.params) {
            if (!taken.contains(p)) {
                problems.add("constructor parameter " + p.describe() + " has no column in the result " + names);
            }
        }
        int nParams = m.params.size();
        int[] paramColumn = new int[nParams];
        Extractor[] paramEx = new Extractor[nParams];
        String[] paramWhere = new String[nParams];
        List<Integer> propCols = new ArrayList<>();
        List<Extractor> propExs = new ArrayList<>();
        List<String> propWheres = new ArrayList<>();
        List<Object> setters = new ArrayList<>();
        for (int c = 0; c < names.size(); c++) {
            Prop p = assigned[c];
            if (p == null) {
                continue;
            }
            String where = where(names.get(c), types.get(c), p);
            Extractor ex;
            try {
                ex = Extractors.of(types.get(c), p.type, new Extractors.Ctx(mode, where));
            } catch (MappingException e) {
                problems.add(e.getMessage());
                continue;
            }
            if (p.kind == Prop.Kind.PARAM) {
                paramColumn[p.index] = c;
                paramEx[p.index] = ex;
                paramWhere[p.index] = where;
            } else {
                propCols.add(c);
                propExs.add(ex);
                propWheres.add(where);
                try {
                    setters.add(Accessors.setter(mode, p));
                } catch (MappingException e) {
                    problems.add(e.getMessage());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new MappingException("cannot map result " + describe(names, types) + " to " + type.getName() + ":\n  "
                    + String.join("\n  ", problems));
        }
        Access.RowConstructor rc = nParams > 0 ? Accessors.rowConstructor(mode, m.constructor) : null;
        Access.Instantiator inst = nParams == 0 ? Accessors.instantiator(mode, m.constructor) : null;
        return new ReadPlan<>(type, false, paramColumn, paramEx, paramWhere, rc, inst,
                propCols.stream().mapToInt(Integer::intValue).toArray(), propExs.toArray(new Extractor[0]),
                propWheres.toArray(new String[0]), setters.toArray());
    }

    private static int indexOf(Prop[] assigned, Prop p) {
        for (int i = 0; i < assigned.length; i++) {
            if (assigned[i] == p) {
                return i;
            }
        }
        return -1;
    }

    static String describe(List<String> names, List<DataType> types) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(names.get(i)).append(' ').append(types.get(i).name());
        }
        return sb.append(')').toString();
    }

    /**
     * Maps the blocks of one result. Lane arrays are reused from block to block. Not thread-safe.
     *
     * @param <T> the mapped class
     */
    public static final class Reader<T> {
        private final ReadPlan<T> plan;
        private final Object[] paramLanes;
        private final Object[] propLanes;
        private Object[] objects = new Object[0];
        private int capacity;
        private long rowsBefore;

        Reader(ReadPlan<T> plan) {
            this.plan = plan;
            this.paramLanes = new Object[plan.paramEx.length];
            this.propLanes = new Object[plan.propEx.length];
        }

        /**
         * Rows mapped so far.
         *
         * @return the rows of all blocks {@link #read} has completed
         */
        public long rows() {
            return rowsBefore;
        }

        /**
         * Maps every row of {@code block} in order and hands each object to {@code sink}.
         *
         * @param block a block of the result whose shape the plan was built for
         * @param sink  receives one object per row, in row order; a scalar plan passes the value itself
         *              (may be {@code null} for a NULL)
         * @throws MappingException when a value cannot be converted (a NULL into a primitive, a
         *                          number out of range), naming the column, property and row
         */
        @SuppressWarnings("unchecked")
        public void read(Block block, Consumer<? super T> sink) {
            int n = block.rowCount();
            if (n > capacity) {
                capacity = Math.max(n, capacity * 2);
                for (int k = 0; k < paramLanes.length; k++) {
                    paramLanes[k] = plan.paramEx[k].lane.newArray(capacity);
                }
                for (int k = 0; k < propLanes.length; k++) {
                    propLanes[k] = plan.propEx[k].lane.newArray(capacity);
                }
                objects = new Object[capacity];
            }
            for (int k = 0; k < paramLanes.length; k++) {
                extract(plan.paramEx[k], block, plan.paramColumn[k], n, paramLanes[k], plan.paramWhere[k]);
            }
            if (plan.scalar) {
                Object[] v = (Object[]) paramLanes[0];
                for (int i = 0; i < n; i++) {
                    sink.accept((T) v[i]);
                }
                rowsBefore += n;
                return;
            }
            Object[] objs = objects;
            if (plan.ctor != null) {
                Access.RowConstructor rc = plan.ctor;
                Object[] lanes = paramLanes;
                for (int i = 0; i < n; i++) {
                    objs[i] = rc.create(lanes, i);
                }
            } else {
                Access.Instantiator inst = plan.instantiator;
                for (int i = 0; i < n; i++) {
                    objs[i] = inst.create();
                }
            }
            for (int k = 0; k < propLanes.length; k++) {
                Object lane = propLanes[k];
                extract(plan.propEx[k], block, plan.propColumn[k], n, lane, plan.propWhere[k]);
                set(plan.setters[k], objs, lane, n);
            }
            for (int i = 0; i < n; i++) {
                T t = (T) objs[i];
                objs[i] = null;
                sink.accept(t);
            }
            rowsBefore += n;
        }

        private void extract(Extractor ex, Block b, int column, int n, Object lane, String where) {
            try {
                ex.extract(b.column(column), n, lane, null);
            } catch (ClickHouseTypeException | ClassCastException | ArithmeticException e) {
                throw new MappingException(where + ", in the block starting at result row " + rowsBefore + ": "
                        + e.getMessage(), e);
            }
        }

        private static void set(Object setter, Object[] objs, Object lane, int n) {
            if (setter instanceof Access.LongSetter s) {
                long[] a = (long[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            } else if (setter instanceof Access.IntSetter s) {
                int[] a = (int[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            } else if (setter instanceof Access.DoubleSetter s) {
                double[] a = (double[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            } else if (setter instanceof Access.ObjectSetter s) {
                Object[] a = (Object[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            } else if (setter instanceof Access.FloatSetter s) {
                float[] a = (float[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            } else if (setter instanceof Access.ShortSetter s) {
                short[] a = (short[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            } else if (setter instanceof Access.ByteSetter s) {
                byte[] a = (byte[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            } else {
                Access.BooleanSetter s = (Access.BooleanSetter) setter;
                boolean[] a = (boolean[]) lane;
                for (int i = 0; i < n; i++) {
                    s.set(objs[i], a[i]);
                }
            }
        }
    }
}
