package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The object mappers of one client: builds {@link ReadPlan}s and {@link WritePlan}s once per (class,
 * column names and types) and caches them, and checks classes against table schemas. Thread-safe.
 *
 * <p>Plans are keyed by the class and the exact list of column names and type names, so a second
 * query of the same shape reuses the plan ({@link #plansBuilt()} does not grow). A failed plan is not
 * cached. At most {@value #MAX_PLANS} plans are kept; beyond that new shapes are planned per query.
 */
public final class Mappers {
    /** Upper bound of cached plans. */
    public static final int MAX_PLANS = 4096;

    private record Key(boolean read, Class<?> type, List<String> names, List<String> types) {
    }

    private final MappingConfig config;
    private final Map<Key, Object> plans = new ConcurrentHashMap<>();
    private final AtomicLong built = new AtomicLong();

    /**
     * Mappers with an empty plan cache.
     *
     * @param config the access mode and unmapped-columns policy every plan is built with
     */
    public Mappers(MappingConfig config) {
        this.config = config;
    }

    /**
     * The settings plans are built with.
     *
     * @return the config given to the constructor
     */
    public MappingConfig config() {
        return config;
    }

    /**
     * Plans built so far (cache misses), for tests and metrics.
     *
     * @return the number of read and write plans built since creation, including those not cached
     */
    public long plansBuilt() {
        return built.get();
    }

    /**
     * Plans currently cached.
     *
     * @return the number of cached read and write plans, at most about {@value #MAX_PLANS}
     */
    public int cachedPlans() {
        return plans.size();
    }

    private static List<String> typeNames(List<DataType> types) {
        List<String> out = new ArrayList<>(types.size());
        for (DataType t : types) {
            out.add(t.name());
        }
        return out;
    }

    /**
     * The plan mapping rows with these columns to {@code type}, built on first use.
     *
     * @param <T>   the mapped class
     * @param type  the class to map rows to: a class with properties (record, constructor binding or
     *              setters), or a scalar such as {@code Long} or {@code String} for a one-column result
     * @param names the result's column names, in block order
     * @param types the result's column types, parallel to {@code names}
     * @return the cached or newly built plan
     * @throws MappingException when the class cannot be mapped (every problem listed)
     */
    @SuppressWarnings("unchecked")
    public <T> ReadPlan<T> readPlan(Class<T> type, List<String> names, List<DataType> types) {
        Key k = new Key(true, type, List.copyOf(names), typeNames(types));
        Object p = plans.get(k);
        if (p == null) {
            p = ReadPlan.build(type, names, types, config);
            built.incrementAndGet();
            if (plans.size() < MAX_PLANS) {
                Object prev = plans.putIfAbsent(k, p);
                p = prev != null ? prev : p;
            }
        }
        return (ReadPlan<T>) p;
    }

    /**
     * The plan filling writers of this insert header from objects of {@code type}, built on first use.
     *
     * @param <T>   the mapped class
     * @param type  the class whose objects are inserted
     * @param names the column names of the insert header the server sent, in its order
     * @param types the column types of the header, parallel to {@code names}
     * @return the cached or newly built plan
     * @throws MappingException when a column has no property or a type cannot be converted (every problem listed)
     */
    @SuppressWarnings("unchecked")
    public <T> WritePlan<T> writePlan(Class<T> type, List<String> names, List<DataType> types) {
        Key k = new Key(false, type, List.copyOf(names), typeNames(types));
        Object p = plans.get(k);
        if (p == null) {
            p = WritePlan.build(type, names, types, config);
            built.incrementAndGet();
            if (plans.size() < MAX_PLANS) {
                Object prev = plans.putIfAbsent(k, p);
                p = prev != null ? prev : p;
            }
        }
        return (WritePlan<T>) p;
    }

    /**
     * The columns of {@code table} an insert of {@code type} names, in table order: each readable
     * property must match an insertable column, and every column without a default must be matched.
     *
     * @param type    the class whose objects are inserted
     * @param table   the table name, for messages
     * @param columns the table's columns as {@code DESCRIBE TABLE} reports them, in table order
     * @return the names of the columns an {@code INSERT INTO table (...)} of {@code type} lists, in table order
     * @throws MappingException listing every missing or extra column and type mismatch
     */
    public List<String> insertColumns(Class<?> type, String table, List<TableColumn> columns) {
        SchemaReport r = check(type, table, columns, true);
        if (!r.ok()) {
            StringBuilder sb = new StringBuilder("cannot insert ").append(type.getName()).append(" into ").append(table)
                    .append(':');
            for (SchemaReport.Problem p : r.problems()) {
                sb.append("\n  ").append(p.message());
            }
            throw new MappingException(sb.toString());
        }
        TypeModel m = TypeModel.of(type);
        List<String> out = new ArrayList<>();
        for (TableColumn c : columns) {
            if (c.insertable() && Names.match(c.name(), m.readable, "properties") != null) {
                out.add(c.name());
            }
        }
        return out;
    }

    /**
     * Checks {@code type} against the columns of {@code table} in both directions and reports every
     * mismatch at once: for inserting objects of {@code type} into the table and, unless {@code type} is
     * read as a scalar, for reading its rows into {@code type}.
     *
     * @param type    the class to check
     * @param table   the table name, for messages
     * @param columns the table's columns as {@code DESCRIBE TABLE} reports them
     * @return a report of every problem found, empty when the class fits
     */
    public SchemaReport check(Class<?> type, String table, List<TableColumn> columns) {
        return check(type, table, columns, false);
    }

    private SchemaReport check(Class<?> type, String table, List<TableColumn> columns, boolean writeOnly) {
        List<SchemaReport.Problem> out = new ArrayList<>();
        TypeModel m = TypeModel.of(type);
        AccessMode mode = config.accessMode().resolve();
        // insert direction: readable properties -> insertable columns
        List<Prop> matchedReadable = new ArrayList<>();
        for (TableColumn c : columns) {
            Prop p;
            try {
                p = Names.match(c.name(), m.readable, "properties of " + type.getSimpleName());
            } catch (MappingException e) {
                out.add(new SchemaReport.Problem(SchemaReport.Kind.AMBIGUOUS, c.name(), c.type().name(), null,
                        e.getMessage()));
                continue;
            }
            if (p == null) {
                if (!c.hasDefault()) {
                    out.add(new SchemaReport.Problem(SchemaReport.Kind.COLUMN_WITHOUT_PROPERTY, c.name(), c.type().name(),
                            null, "column '" + c.name() + "' (" + c.type().name() + ") has no default and no property in "
                            + type.getSimpleName()));
                }
                continue;
            }
            matchedReadable.add(p);
            if (!c.insertable()) {
                out.add(new SchemaReport.Problem(SchemaReport.Kind.NOT_INSERTABLE, c.name(), c.type().name(),
                        p.describe(), p.describe() + " maps to " + c.defaultKind() + " column '" + c.name()
                        + "', which an insert cannot write"));
                continue;
            }
            String why = WritePlan.problem(c.type(), p.type);
            if (why != null) {
                out.add(new SchemaReport.Problem(SchemaReport.Kind.NOT_WRITABLE, c.name(), c.type().name(), p.describe(),
                        "column '" + c.name() + "' (" + c.type().name() + ") <- " + p.describe()
                        + ": cannot convert to ClickHouse " + c.type().name() + (why.isEmpty() ? "" : " (" + why + ")")));
            }
        }
        for (Prop p : m.readable) {
            if (!matchedReadable.contains(p)) {
                out.add(new SchemaReport.Problem(SchemaReport.Kind.PROPERTY_WITHOUT_COLUMN, null, null, p.describe(),
                        p.describe() + " has no column in " + table));
            }
        }
        if (!writeOnly && !ReadPlan.isScalar(type)) {
            if (m.notCreatable != null) {
                out.add(new SchemaReport.Problem(SchemaReport.Kind.AMBIGUOUS, null, null, null, m.notCreatable));
            }
            List<Prop> settable = new ArrayList<>(m.params);
            for (Prop w : m.writable) {
                if (m.params.stream().noneMatch(p -> p.name.equals(w.name))) {
                    settable.add(w);
                }
            }
            List<Prop> matched = new ArrayList<>();
            for (TableColumn c : columns) {
                Prop p;
                try {
                    p = Names.match(c.name(), settable, "properties of " + type.getSimpleName());
                } catch (MappingException e) {
                    continue; // reported above
                }
                if (p == null) {
                    continue;
                }
                matched.add(p);
                String where = ReadPlan.where(c.name(), c.type(), p);
                try {
                    Extractors.of(c.type(), p.type, new Extractors.Ctx(mode, where));
                } catch (MappingException e) {
                    out.add(new SchemaReport.Problem(SchemaReport.Kind.NOT_READABLE, c.name(), c.type().name(),
                            p.describe(), e.getMessage()));
                }
            }
            for (Prop p : m.params) {
                if (!matched.contains(p)) {
                    out.add(new SchemaReport.Problem(SchemaReport.Kind.PARAMETER_WITHOUT_COLUMN, null, null, p.describe(),
                            "constructor parameter " + p.describe() + " has no column in " + table));
                }
            }
        }
        return new SchemaReport(table, type, out);
    }
}
