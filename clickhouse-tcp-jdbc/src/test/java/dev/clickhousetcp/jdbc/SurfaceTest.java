package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Calls every method of the main JDBC interfaces with plausible arguments: no {@link AbstractMethodError},
 * {@link UnsupportedOperationException} or {@link NullPointerException}, and every refusal is a
 * {@link SQLFeatureNotSupportedException} with SQLState HYC00.
 */
@ClickHouseTest
class SurfaceTest {
    /** Methods that end the object under test, called last by the test itself. */
    private static final Set<String> ENDING = Set.of("close", "abort", "closeOnCompletion");

    private static Object argument(Class<?> type) {
        if (type == int.class) {
            return 1;
        }
        if (type == long.class) {
            return 1L;
        }
        if (type == boolean.class) {
            return true;
        }
        if (type == short.class) {
            return (short) 1;
        }
        if (type == byte.class) {
            return (byte) 1;
        }
        if (type == double.class) {
            return 1.0;
        }
        if (type == float.class) {
            return 1.0f;
        }
        if (type == String.class) {
            return "1";
        }
        if (type == Class.class) {
            return Object.class;
        }
        if (type == Executor.class) {
            return (Executor) Runnable::run;
        }
        if (type == int[].class) {
            return new int[]{1};
        }
        if (type == String[].class) {
            return new String[]{"a"};
        }
        if (type == Object[].class) {
            return new Object[]{1};
        }
        if (type == byte[].class) {
            return new byte[]{1};
        }
        if (type == java.util.Properties.class) {
            return new java.util.Properties();
        }
        if (type == java.util.Map.class) {
            return new java.util.HashMap<>();
        }
        if (type == java.io.InputStream.class) {
            return new java.io.ByteArrayInputStream(new byte[]{'1'});
        }
        if (type == java.io.Reader.class) {
            return new java.io.StringReader("1");
        }
        if (type == java.sql.SQLType.class) {
            return java.sql.JDBCType.INTEGER;
        }
        if (type == Object.class) {
            return 1;
        }
        return null;
    }

    private static List<String> walk(Object target, Class<?> iface) throws Exception {
        List<String> problems = new ArrayList<>();
        Method[] methods = iface.getMethods();
        Arrays.sort(methods, Comparator.comparing(Method::toString));
        for (Method m : methods) {
            if (Modifier.isStatic(m.getModifiers()) || ENDING.contains(m.getName())) {
                continue;
            }
            Object[] args = Arrays.stream(m.getParameterTypes()).map(SurfaceTest::argument).toArray();
            try {
                m.invoke(target, args);
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause();
                if (t instanceof SQLFeatureNotSupportedException f) {
                    if (!"HYC00".equals(f.getSQLState())) {
                        problems.add(m + ": refused with SQLState " + f.getSQLState());
                    }
                } else if (!(t instanceof SQLException)) {
                    problems.add(m + ": " + t);
                }
            }
        }
        return problems;
    }

    @Test
    void everyMethodAnswersOrRefusesCleanly() throws Exception {
        List<String> problems = new ArrayList<>();
        try (Connection c = JdbcTests.connect("modern")) {
            problems.addAll(walk(c.getMetaData(), DatabaseMetaData.class));
            try (Statement s = c.createStatement()) {
                problems.addAll(walk(s, Statement.class));
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT ?")) {
                problems.addAll(walk(ps, PreparedStatement.class));
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1 AS `1`, 'x' AS s")) {
                rs.next();
                problems.addAll(walk(rs.getMetaData(), ResultSetMetaData.class));
                problems.addAll(walk(rs, ResultSet.class));
            }
            problems.addAll(walk(c, Connection.class));
        }
        problems.addAll(walk(new ClickHouseDriver(), java.sql.Driver.class));
        // the legacy server: getConnection(user, password) logs in as an unknown user, and a failed login
        // aborts the modern server's process
        problems.addAll(walk(new ClickHouseDataSource(JdbcTests.url(JdbcTests.server("legacy"))),
                javax.sql.DataSource.class));
        assertThat(problems).isEmpty();
    }
}
