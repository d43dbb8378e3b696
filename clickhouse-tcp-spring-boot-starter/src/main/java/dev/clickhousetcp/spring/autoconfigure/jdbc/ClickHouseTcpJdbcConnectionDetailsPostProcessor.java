package dev.clickhousetcp.spring.autoconfigure.jdbc;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginProvider;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Puts clickhouse-tcp-jdbc in charge of the {@link JdbcConnectionDetails} beans that service connections and
 * applications define (the ones from {@code spring.datasource.*} are left to
 * {@link ClickHouseTcpDataSourcePropertiesPostProcessor}, so Spring Boot keeps applying
 * {@code spring.datasource.hikari.*} over them):
 * <ul>
 * <li>details with one of the driver's URLs but the driver class Spring Boot derives from its prefix
 * ({@code com.clickhouse.jdbc.ClickHouseDriver}, not on the class path) get {@link ClickHouseDriver};</li>
 * <li>details with a ClickHouse URL of another driver, such as the {@code jdbc:clickhouse://host:8123} that Spring
 * Boot's {@code @ServiceConnection} and docker compose support make for a {@code clickhouse/clickhouse-server}
 * container, are replaced by the native-port details that the same service connection gives the
 * {@code clickhouse.tcp} client ({@code jdbc:clickhouse:tcp://host:<mapped 9000>/db}, its user and password) when
 * there are such details. Without them they are left as they are: they are the application's choice of ClickHouse's
 * HTTP driver ({@code @ServiceConnection(type = JdbcConnectionDetails.class)}), and fail with that driver's
 * "cannot load driver class" when it is missing.</li>
 * </ul>
 */
final class ClickHouseTcpJdbcConnectionDetailsPostProcessor implements BeanPostProcessor, Ordered {

    /** Spring Boot's details from {@code spring.datasource.*} (package-private there). */
    private static final String PROPERTIES_DETAILS = "org.springframework.boot.jdbc.autoconfigure.PropertiesJdbcConnectionDetails";

    /** The starter's details from {@code clickhouse.tcp.*} (package-private there). */
    private static final String PROPERTIES_NATIVE_DETAILS = "dev.clickhousetcp.spring.autoconfigure.PropertiesClickHouseTcpConnectionDetails";

    private final ObjectProvider<ClickHouseTcpConnectionDetails> nativeDetails;

    ClickHouseTcpJdbcConnectionDetailsPostProcessor(ObjectProvider<ClickHouseTcpConnectionDetails> nativeDetails) {
        this.nativeDetails = nativeDetails;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!(bean instanceof JdbcConnectionDetails details) || bean instanceof NativeJdbcConnectionDetails
                || bean.getClass().getName().equals(PROPERTIES_DETAILS)) {
            return bean;
        }
        String url = details.getJdbcUrl();
        if (ClickHouseTcpJdbcUrls.isNative(url)) {
            String driver = details.getDriverClassName();
            if (driver.equals(DatabaseDriver.CLICKHOUSE.getDriverClassName()) && !ClassUtils.isPresent(driver, null)) {
                return new NativeJdbcConnectionDetails(url, null, details.getUsername(), details.getPassword(), details);
            }
            return bean;
        }
        if (ClickHouseTcpJdbcUrls.isOtherClickHouse(url)) {
            ClickHouseTcpConnectionDetails serviceDetails = serviceConnectionDetails();
            if (serviceDetails != null) {
                return nativeDetails(serviceDetails, details);
            }
        }
        return bean;
    }

    /**
     * JDBC details for this driver with the servers, database and credentials of {@code nativeDetails}.
     * @param nativeDetails the client's connection details
     * @param replaced the JDBC details these replace, or {@code null}
     * @return the JDBC details; when {@code nativeDetails} has an SSL bundle, which a JDBC URL cannot carry, their
     *         {@link JdbcConnectionDetails#getJdbcUrl()} throws an {@link IllegalStateException} that says what to
     *         set instead (so only a DataSource actually made from them fails)
     */
    static JdbcConnectionDetails nativeDetails(ClickHouseTcpConnectionDetails nativeDetails,
            @Nullable JdbcConnectionDetails replaced) {
        if (nativeDetails.getSslBundle() != null) {
            String reason = "The ClickHouse connection details " + nativeDetails + " use an SSL bundle, which "
                    + "clickhouse-tcp-jdbc's JDBC URL cannot carry, so they cannot become JDBC connection details"
                    + ((replaced != null) ? " in place of " + replaced.getJdbcUrl() : "") + ": set "
                    + "clickhouse.tcp.jdbc.enabled=true for a DataSource over the clickhouse.tcp client, which uses "
                    + "the bundle, or spring.datasource.url";
            return new NativeJdbcConnectionDetails(null, reason, nativeDetails.getUsername(),
                    nativeDetails.getPassword(), replaced);
        }
        return new NativeJdbcConnectionDetails(ClickHouseTcpJdbcUrls.of(nativeDetails), null,
                nativeDetails.getUsername(), nativeDetails.getPassword(), replaced);
    }

    /**
     * The native details of a service connection (or of the application), not those of the properties nor those
     * made from {@code spring.datasource.*}.
     */
    private @Nullable ClickHouseTcpConnectionDetails serviceConnectionDetails() {
        ClickHouseTcpConnectionDetails details = this.nativeDetails.getIfUnique();
        return (details == null || details instanceof DataSourceUrlClickHouseTcpConnectionDetails
                || details.getClass().getName().equals(PROPERTIES_NATIVE_DETAILS)) ? null : details;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /**
     * JDBC details for clickhouse-tcp-jdbc, keeping the origin of the details they replace, if any.
     */
    static final class NativeJdbcConnectionDetails implements JdbcConnectionDetails, OriginProvider {

        private final @Nullable String jdbcUrl;

        /** Why there is no URL, when {@link #jdbcUrl} is {@code null}. */
        private final @Nullable String unavailable;

        private final @Nullable String username;

        private final @Nullable String password;

        private final @Nullable Object origin;

        NativeJdbcConnectionDetails(@Nullable String jdbcUrl, @Nullable String unavailable, @Nullable String username,
                @Nullable String password, @Nullable Object origin) {
            this.jdbcUrl = jdbcUrl;
            this.unavailable = unavailable;
            this.username = username;
            this.password = password;
            this.origin = origin;
        }

        @Override
        public String getJdbcUrl() {
            if (this.jdbcUrl == null) {
                throw new IllegalStateException(this.unavailable);
            }
            return this.jdbcUrl;
        }

        @Override
        public @Nullable String getUsername() {
            return this.username;
        }

        @Override
        public @Nullable String getPassword() {
            return this.password;
        }

        @Override
        public String getDriverClassName() {
            return ClickHouseDriver.class.getName();
        }

        @Override
        public @Nullable String getXaDataSourceClassName() {
            return null;
        }

        @Override
        public @Nullable Origin getOrigin() {
            return Origin.from(this.origin);
        }

        @Override
        public String toString() {
            return "NativeJdbcConnectionDetails[" + ((this.jdbcUrl != null) ? this.jdbcUrl : "no URL") + ", user=" + this.username
                    + ((this.origin != null) ? ", from " + this.origin.getClass().getSimpleName() : "") + "]";
        }

    }

}
