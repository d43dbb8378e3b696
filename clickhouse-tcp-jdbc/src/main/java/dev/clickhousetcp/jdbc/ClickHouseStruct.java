package dev.clickhousetcp.jdbc;

import java.sql.SQLException;
import java.sql.Struct;
import java.util.Arrays;
import java.util.Map;

/**
 * A ClickHouse {@code Tuple(...)} value; {@link #getSQLTypeName()} is the full tuple type. Immutable.
 */
final class ClickHouseStruct implements Struct {
    private final String typeName;
    private final Object[] attributes;

    ClickHouseStruct(String typeName, Object[] attributes) {
        this.typeName = typeName;
        this.attributes = attributes == null ? new Object[0] : attributes.clone();
    }

    @Override
    public String getSQLTypeName() {
        return typeName;
    }

    @Override
    public Object[] getAttributes() {
        return attributes.clone();
    }

    @Override
    public Object[] getAttributes(Map<String, Class<?>> map) throws SQLException {
        return getAttributes();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClickHouseStruct s && typeName.equals(s.typeName) && Arrays.deepEquals(attributes, s.attributes);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(attributes);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(attributes);
    }
}
