package dev.clickhousetcp.benchmarks;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The least a {@code ResultSet} can do: rows of {@code id UInt64, s String, f Float64} held in three arrays,
 * read with {@code next}, {@code getLong}, {@code getString}, {@code getDouble}, {@code wasNull},
 * {@code findColumn} and a {@code ResultSetMetaData} of names only; every other method throws
 * {@link SQLFeatureNotSupportedException}. A row mapper run over it costs what the mapper itself costs (no
 * I/O, no decoding, no allocation in the result set), the floor of the same mapper over a driver.
 * Not thread-safe.
 */
final class InMemoryResultSet implements ResultSet {
    private static final String[] NAMES = {"id", "s", "f"};

    private final long[] ids;
    private final String[] strings;
    private final double[] floats;
    private final ResultSetMetaData metaData = new MetaData();
    private int row = -1;
    private boolean closed;

    /** Rows {@code i} of the three arrays, which must have the same length (not copied). */
    InMemoryResultSet(long[] ids, String[] strings, double[] floats) {
        if (strings.length != ids.length || floats.length != ids.length) {
            throw new IllegalArgumentException("columns of different lengths");
        }
        this.ids = ids;
        this.strings = strings;
        this.floats = floats;
    }

    private static SQLException unsupported() {
        return new SQLFeatureNotSupportedException("not in the in-memory result set");
    }

    private void check(int columnIndex) throws SQLException {
        if (row < 0 || row >= ids.length || columnIndex < 1 || columnIndex > NAMES.length) {
            throw new SQLException("no row " + row + " or column " + columnIndex);
        }
    }

    @Override
    public boolean next() {
        if (row < ids.length) {
            row++;
        }
        return row < ids.length;
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean wasNull() {
        return false;
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        check(columnIndex);
        return ids[row];
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        check(columnIndex);
        return strings[row];
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        check(columnIndex);
        return floats[row];
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(columnLabel)) {
                return i + 1;
            }
        }
        throw new SQLException("no column " + columnLabel);
    }

    @Override
    public ResultSetMetaData getMetaData() {
        return metaData;
    }

    @Override
    public SQLWarning getWarnings() {
        return null;
    }

    @Override
    public void clearWarnings() {
    }

    @Override
    public Statement getStatement() {
        return null;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw unsupported();
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public boolean getBoolean(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public byte getByte(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public short getShort(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public int getInt(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public float getFloat(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public BigDecimal getBigDecimal(int a, int b) throws SQLException {
        throw unsupported();
    }

    @Override
    public byte[] getBytes(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Date getDate(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Time getTime(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Timestamp getTimestamp(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public InputStream getAsciiStream(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public InputStream getUnicodeStream(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public InputStream getBinaryStream(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public String getString(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean getBoolean(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public byte getByte(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public short getShort(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public int getInt(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public long getLong(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public float getFloat(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public double getDouble(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public BigDecimal getBigDecimal(String a, int b) throws SQLException {
        throw unsupported();
    }

    @Override
    public byte[] getBytes(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Date getDate(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Time getTime(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Timestamp getTimestamp(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public InputStream getAsciiStream(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public InputStream getUnicodeStream(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public InputStream getBinaryStream(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public String getCursorName() throws SQLException {
        throw unsupported();
    }

    @Override
    public Object getObject(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Object getObject(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Reader getCharacterStream(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Reader getCharacterStream(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public BigDecimal getBigDecimal(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public BigDecimal getBigDecimal(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean isFirst() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean isLast() throws SQLException {
        throw unsupported();
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw unsupported();
    }

    @Override
    public void afterLast() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean first() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean last() throws SQLException {
        throw unsupported();
    }

    @Override
    public int getRow() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean absolute(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean relative(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean previous() throws SQLException {
        throw unsupported();
    }

    @Override
    public void setFetchDirection(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public int getFetchDirection() throws SQLException {
        throw unsupported();
    }

    @Override
    public void setFetchSize(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public int getFetchSize() throws SQLException {
        throw unsupported();
    }

    @Override
    public int getType() throws SQLException {
        throw unsupported();
    }

    @Override
    public int getConcurrency() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean rowUpdated() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean rowInserted() throws SQLException {
        throw unsupported();
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNull(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBoolean(int a, boolean b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateByte(int a, byte b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateShort(int a, short b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateInt(int a, int b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateLong(int a, long b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateFloat(int a, float b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateDouble(int a, double b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBigDecimal(int a, BigDecimal b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateString(int a, String b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBytes(int a, byte[] b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateDate(int a, Date b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateTime(int a, Time b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateTimestamp(int a, Timestamp b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateAsciiStream(int a, InputStream b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBinaryStream(int a, InputStream b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateCharacterStream(int a, Reader b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateObject(int a, Object b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateObject(int a, Object b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNull(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBoolean(String a, boolean b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateByte(String a, byte b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateShort(String a, short b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateInt(String a, int b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateLong(String a, long b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateFloat(String a, float b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateDouble(String a, double b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBigDecimal(String a, BigDecimal b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateString(String a, String b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBytes(String a, byte[] b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateDate(String a, Date b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateTime(String a, Time b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateTimestamp(String a, Timestamp b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateAsciiStream(String a, InputStream b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBinaryStream(String a, InputStream b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateCharacterStream(String a, Reader b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateObject(String a, Object b, int c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateObject(String a, Object b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void insertRow() throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateRow() throws SQLException {
        throw unsupported();
    }

    @Override
    public void deleteRow() throws SQLException {
        throw unsupported();
    }

    @Override
    public void refreshRow() throws SQLException {
        throw unsupported();
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw unsupported();
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        throw unsupported();
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        throw unsupported();
    }

    @Override
    public Object getObject(int a, Map<String, Class<?>> b) throws SQLException {
        throw unsupported();
    }

    @Override
    public Ref getRef(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Blob getBlob(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Clob getClob(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Array getArray(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Object getObject(String a, Map<String, Class<?>> b) throws SQLException {
        throw unsupported();
    }

    @Override
    public Ref getRef(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Blob getBlob(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Clob getClob(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Array getArray(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Date getDate(int a, Calendar b) throws SQLException {
        throw unsupported();
    }

    @Override
    public Date getDate(String a, Calendar b) throws SQLException {
        throw unsupported();
    }

    @Override
    public Time getTime(int a, Calendar b) throws SQLException {
        throw unsupported();
    }

    @Override
    public Time getTime(String a, Calendar b) throws SQLException {
        throw unsupported();
    }

    @Override
    public Timestamp getTimestamp(int a, Calendar b) throws SQLException {
        throw unsupported();
    }

    @Override
    public Timestamp getTimestamp(String a, Calendar b) throws SQLException {
        throw unsupported();
    }

    @Override
    public URL getURL(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public URL getURL(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateRef(int a, Ref b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateRef(String a, Ref b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBlob(int a, Blob b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBlob(String a, Blob b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateClob(int a, Clob b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateClob(String a, Clob b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateArray(int a, Array b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateArray(String a, Array b) throws SQLException {
        throw unsupported();
    }

    @Override
    public RowId getRowId(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public RowId getRowId(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateRowId(int a, RowId b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateRowId(String a, RowId b) throws SQLException {
        throw unsupported();
    }

    @Override
    public int getHoldability() throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNString(int a, String b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNString(String a, String b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNClob(int a, NClob b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNClob(String a, NClob b) throws SQLException {
        throw unsupported();
    }

    @Override
    public NClob getNClob(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public NClob getNClob(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public SQLXML getSQLXML(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public SQLXML getSQLXML(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateSQLXML(int a, SQLXML b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateSQLXML(String a, SQLXML b) throws SQLException {
        throw unsupported();
    }

    @Override
    public String getNString(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public String getNString(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Reader getNCharacterStream(int a) throws SQLException {
        throw unsupported();
    }

    @Override
    public Reader getNCharacterStream(String a) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNCharacterStream(int a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNCharacterStream(String a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateAsciiStream(int a, InputStream b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBinaryStream(int a, InputStream b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateCharacterStream(int a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateAsciiStream(String a, InputStream b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBinaryStream(String a, InputStream b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateCharacterStream(String a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBlob(int a, InputStream b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBlob(String a, InputStream b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateClob(int a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateClob(String a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNClob(int a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNClob(String a, Reader b, long c) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNCharacterStream(int a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNCharacterStream(String a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateAsciiStream(int a, InputStream b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBinaryStream(int a, InputStream b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateCharacterStream(int a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateAsciiStream(String a, InputStream b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBinaryStream(String a, InputStream b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateCharacterStream(String a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBlob(int a, InputStream b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateBlob(String a, InputStream b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateClob(int a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateClob(String a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNClob(int a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public void updateNClob(String a, Reader b) throws SQLException {
        throw unsupported();
    }

    @Override
    public <T> T getObject(int a, Class<T> b) throws SQLException {
        throw unsupported();
    }

    @Override
    public <T> T getObject(String a, Class<T> b) throws SQLException {
        throw unsupported();
    }

    /** Column count and names. */
    private static final class MetaData implements ResultSetMetaData {
        @Override
        public int getColumnCount() {
            return NAMES.length;
        }

        @Override
        public String getColumnLabel(int column) {
            return NAMES[column - 1];
        }

        @Override
        public String getColumnName(int column) {
            return NAMES[column - 1];
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }

        @Override
        public boolean isAutoIncrement(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isCaseSensitive(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isSearchable(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isCurrency(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public int isNullable(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isSigned(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public int getColumnDisplaySize(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public String getSchemaName(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public int getPrecision(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public int getScale(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public String getTableName(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public String getCatalogName(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public int getColumnType(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public String getColumnTypeName(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isReadOnly(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isWritable(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public boolean isDefinitelyWritable(int a) throws SQLException {
            throw unsupported();
        }

        @Override
        public String getColumnClassName(int a) throws SQLException {
            throw unsupported();
        }
    }
}
