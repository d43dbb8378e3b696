package dev.clickhousetcp.jdbc;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;

/**
 * A ClickHouse {@code Array(T)} value: the elements in memory (a value read from a result or built by
 * {@link java.sql.Connection#createArrayOf}). {@link #getBaseTypeName()} is the ClickHouse element type.
 * Immutable apart from {@link #free()}.
 */
final class ClickHouseArray implements Array {
    private final String elementType;
    private Object[] elements;

    ClickHouseArray(String elementType, Object[] elements) {
        this.elementType = elementType;
        this.elements = elements == null ? new Object[0] : elements.clone();
    }

    /**
     * The ClickHouse element type for {@code createArrayOf(typeName, elements)}: a ClickHouse name as given, a JDBC
     * name ({@code JDBCType.getName()}) mapped to the type the driver binds such elements as, and a name that says
     * no type ({@code UNKNOWN}, which Spring Data JDBC passes for classes without a JDBC type such as UUID,
     * {@code OTHER}, {@code JAVA_OBJECT}, {@code NULL}) taken from the elements themselves.
     *
     * @throws SQLException 22023 for a null name or elements no ClickHouse type fits
     */
    static String clickHouseTypeName(String typeName, Object[] elements) throws SQLException {
        if (typeName == null) {
            throw new SQLException("createArrayOf needs an element type name", "22023");
        }
        return switch (typeName.trim().toUpperCase(java.util.Locale.ROOT)) {
            case "BINARY", "VARBINARY", "LONGVARBINARY", "BLOB", "NCHAR", "LONGNVARCHAR", "NCLOB", "TIME",
                 "TIME_WITH_TIMEZONE" -> "String";
            case "TIMESTAMP_WITH_TIMEZONE" -> "DateTime64(9)";
            case "UNKNOWN", "OTHER", "JAVA_OBJECT", "NULL" -> {
                String array = JdbcValues.parameterType(JdbcValues.normalize(elements == null ? new Object[0]
                        : elements), java.sql.Types.VARCHAR);
                yield array.substring("Array(".length(), array.length() - 1);
            }
            default -> JdbcTypes.fromJdbcName(typeName);
        };
    }

    private Object[] elements() throws SQLException {
        if (elements == null) {
            throw new SQLException("the array was freed", "HY010");
        }
        return elements;
    }

    @Override
    public String getBaseTypeName() throws SQLException {
        elements();
        return elementType;
    }

    @Override
    public int getBaseType() throws SQLException {
        elements();
        return JdbcTypes.sqlType(elementType);
    }

    @Override
    public Object getArray() throws SQLException {
        return elements().clone();
    }

    @Override
    public Object getArray(Map<String, Class<?>> map) throws SQLException {
        return getArray();
    }

    @Override
    public Object getArray(long index, int count) throws SQLException {
        Object[] e = elements();
        if (index < 1 || count < 0 || index - 1 + count > e.length) {
            throw new SQLException("array slice out of range: index " + index + ", count " + count + ", length "
                    + e.length, "22003");
        }
        return Arrays.copyOfRange(e, (int) index - 1, (int) index - 1 + count);
    }

    @Override
    public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException {
        return getArray(index, count);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        throw SqlStates.notSupported("Array.getResultSet");
    }

    @Override
    public ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException {
        throw SqlStates.notSupported("Array.getResultSet");
    }

    @Override
    public ResultSet getResultSet(long index, int count) throws SQLException {
        throw SqlStates.notSupported("Array.getResultSet");
    }

    @Override
    public ResultSet getResultSet(long index, int count, Map<String, Class<?>> map) throws SQLException {
        throw SqlStates.notSupported("Array.getResultSet");
    }

    @Override
    public void free() {
        elements = null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClickHouseArray a && elementType.equals(a.elementType)
                && Arrays.deepEquals(elements, a.elements);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(elements);
    }

    @Override
    public String toString() {
        return elements == null ? "freed Array(" + elementType + ")" : Arrays.deepToString(elements);
    }
}
