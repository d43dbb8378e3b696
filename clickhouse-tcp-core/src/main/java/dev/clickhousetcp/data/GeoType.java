package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;

/**
 * The geo families, each a named alias of a fixed structure (ClickHouse {@code DataTypeCustomGeo}):
 * Point = Tuple(Float64, Float64); Ring and LineString = Array(Point); MultiLineString =
 * Array(LineString); Polygon = Array(Ring); MultiPolygon = Array(Polygon). The wire layout is that of the
 * structure; the column keeps the family name as its type name.
 *
 * <p>Columns: a Point column is a {@link TupleColumn} of two Float64 columns (x, y), the others are
 * {@link ArrayColumn}s over the next family; {@code getObject} returns {@code List<Double>} of size 2
 * for a Point and nested {@code List}s for the rest, {@code getString} prints like the server
 * ({@code (1.5,2)}, {@code [[(0,0),(1,0),(1,1)]]}). The writer accepts the same shapes: a Point as a
 * {@code List}, {@code double[]}, {@code Object[]} or record of two numbers; the other families as
 * {@code List}s / arrays / {@code Iterable}s of the next family.
 */
public final class GeoType extends DataType {

    /** The geo families. */
    public enum Family {
        /** {@code Point}: {@code Tuple(Float64, Float64)}, x then y. */
        POINT("Point"),
        /** {@code Ring}: {@code Array(Point)}, a simple polygon without holes. */
        RING("Ring"),
        /** {@code LineString}: {@code Array(Point)}, a line through its points in order. */
        LINE_STRING("LineString"),
        /** {@code MultiLineString}: {@code Array(LineString)}. */
        MULTI_LINE_STRING("MultiLineString"),
        /** {@code Polygon}: {@code Array(Ring)}, the outer ring first, then the holes. */
        POLYGON("Polygon"),
        /** {@code MultiPolygon}: {@code Array(Polygon)}. */
        MULTI_POLYGON("MultiPolygon");

        private final String typeName;

        Family(String typeName) {
            this.typeName = typeName;
        }

        /**
         * The ClickHouse type name of the family.
         *
         * @return e.g. {@code MultiPolygon}
         */
        public String typeName() {
            return typeName;
        }
    }

    private final Family family;
    /** The family one level down (null for Point). */
    private final GeoType inner;
    /** The structure this family is an alias of. */
    private final DataType structure;

    private GeoType(Family family, GeoType inner) {
        super(family.typeName);
        this.family = family;
        this.inner = inner;
        if (family == Family.POINT) {
            DataType f64 = new NumberType("Float64", NumberType.Kind.FLOAT64);
            this.structure = new TupleType("Tuple(Float64, Float64)", new DataType[] {f64, f64}, new String[2]);
        } else {
            this.structure = new ArrayType("Array(" + inner.name() + ")", inner);
        }
    }

    private static final GeoType POINT = new GeoType(Family.POINT, null);
    private static final GeoType RING = new GeoType(Family.RING, POINT);
    private static final GeoType LINE_STRING = new GeoType(Family.LINE_STRING, POINT);
    private static final GeoType MULTI_LINE_STRING = new GeoType(Family.MULTI_LINE_STRING, LINE_STRING);
    private static final GeoType POLYGON = new GeoType(Family.POLYGON, RING);
    private static final GeoType MULTI_POLYGON = new GeoType(Family.MULTI_POLYGON, POLYGON);

    /** The geo type named by {@code n}, or {@code null} when {@code n} is not a geo family. */
    static GeoType of(TypeNode n) {
        GeoType t = switch (n.name()) {
            case "Point" -> POINT;
            case "Ring" -> RING;
            case "LineString" -> LINE_STRING;
            case "MultiLineString" -> MULTI_LINE_STRING;
            case "Polygon" -> POLYGON;
            case "MultiPolygon" -> MULTI_POLYGON;
            default -> null;
        };
        if (t != null && !n.params().isEmpty()) {
            throw new ClickHouseTypeException("type " + n.name() + " takes no parameters: " + n);
        }
        return t;
    }

    /**
     * The family of this type.
     *
     * @return the family, never {@code null}
     */
    public Family family() {
        return family;
    }

    /**
     * The structure this family stands for, e.g. {@code Array(Point)} for Ring.
     *
     * @return the {@code Tuple(Float64, Float64)} of a Point, else an {@code Array} of the next family
     */
    public DataType structure() {
        return structure;
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        // Float64 tuples and arrays of them: no prefix state (readPrefix reads none)
        if (family == Family.POINT) {
            TupleColumn t = (TupleColumn) structure.read(in, rows, ctx, DeserializationState.NONE);
            return new TupleColumn(this, rows, new Column[] {t.element(0), t.element(1)});
        }
        int[] offsets = ArrayType.readOffsets(in, rows, ctx, name);
        int total = rows == 0 ? 0 : offsets[rows - 1];
        return new ArrayColumn(this, rows, offsets, inner.read(in, total, ctx, DeserializationState.NONE));
    }

    @Override
    public ColumnWriter newWriter() {
        return new ForwardingWriter(this, structure.newWriter());
    }

    @Override
    int rowBinaryWidth() {
        return family == Family.POINT ? 16 : -1;
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return RowBinaryColumns.builder(structure(), depth + 1);
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return ValueTypes.accepts(structure(), v, strict, depth + 1);
    }

    @Override
    AggregateStateLayout rowBinaryLayout(String function) {
        return rowBinaryWidth() >= 0 ? super.rowBinaryLayout(function) : structure().rowBinaryLayout(function);
    }
}
