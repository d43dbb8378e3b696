package dev.clickhousetcp.jdbc.springdata;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Optional;
import org.springframework.data.jdbc.core.dialect.DialectResolver;
import org.springframework.data.relational.core.dialect.Dialect;
import org.springframework.data.relational.core.sql.IdentifierProcessing;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * Tells Spring Data JDBC's {@link DialectResolver} to use {@link ClickHouseDialect} for connections of this driver.
 *
 * <p>Registered in this jar's {@code META-INF/spring.factories} under
 * {@code org.springframework.data.jdbc.core.dialect.DialectResolver$JdbcDialectProvider}, the key Spring Data JDBC
 * 3.5 and later read (the deprecated {@code ...repository.config.DialectResolver$JdbcDialectProvider} key is read
 * too, but only for classes implementing the deprecated interface, so it is not listed). It answers only when the
 * connection's {@code DatabaseMetaData} says product {@code ClickHouse} <em>and</em> driver
 * {@value ClickHouseDriver#NAME}: connections of other ClickHouse drivers (the official HTTP driver) are left to
 * their own dialects.
 *
 * <p>Stateless and thread-safe; opens one connection from the {@link JdbcOperations} per call.
 */
public class ClickHouseDialectProvider implements DialectResolver.JdbcDialectProvider {

    /** Creates the provider ({@code SpringFactoriesLoader} calls this). */
    public ClickHouseDialectProvider() {
    }

    @Override
    public Optional<Dialect> getDialect(JdbcOperations operations) {
        return Optional.ofNullable(operations.execute((ConnectionCallback<Dialect>) ClickHouseDialectProvider::dialect));
    }

    /**
     * The dialect for one connection, or null when the connection is not one of this driver's.
     *
     * @throws SQLException when the metadata cannot be read
     */
    static ClickHouseDialect dialect(Connection connection) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        if (!"ClickHouse".equals(metaData.getDatabaseProductName())
                || !ClickHouseDriver.NAME.equals(metaData.getDriverName())) {
            return null;
        }
        return new ClickHouseDialect(identifierProcessing(metaData));
    }

    /** Quote from {@code getIdentifierQuoteString}, letter casing from the identifier-case flags (JDBC's rules). */
    static IdentifierProcessing identifierProcessing(DatabaseMetaData metaData) throws SQLException {
        String quote = metaData.getIdentifierQuoteString();
        IdentifierProcessing.Quoting quoting = quote == null || quote.isBlank()
                ? IdentifierProcessing.Quoting.NONE : new IdentifierProcessing.Quoting(quote.trim());
        IdentifierProcessing.LetterCasing casing;
        if (metaData.supportsMixedCaseIdentifiers()) {
            casing = IdentifierProcessing.LetterCasing.AS_IS;
        } else if (metaData.storesUpperCaseIdentifiers()) {
            casing = IdentifierProcessing.LetterCasing.UPPER_CASE;
        } else if (metaData.storesLowerCaseIdentifiers()) {
            casing = IdentifierProcessing.LetterCasing.LOWER_CASE;
        } else {
            casing = IdentifierProcessing.LetterCasing.AS_IS;
        }
        return IdentifierProcessing.create(quoting, casing);
    }
}
