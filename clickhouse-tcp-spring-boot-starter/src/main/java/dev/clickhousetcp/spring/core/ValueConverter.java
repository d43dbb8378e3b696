package dev.clickhousetcp.spring.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.dao.TypeMismatchDataAccessException;
import org.springframework.util.ClassUtils;

/**
 * Converts a value as the client returns it ({@code Column.getObject}: Long, BigInteger,
 * ZonedDateTime, LocalDate, List, ...) to the type a caller asked for. Stateless and thread-safe.
 *
 * <p>Order: {@code null} stays {@code null}; a value already of the type is returned as is;
 * {@code String} targets get ClickHouse's text form of the value (supplied by the caller); then the
 * date/time conversions below; then Spring's shared {@link DefaultConversionService} (numbers with
 * overflow checks, strings to numbers, enums, UUIDs, ...). Anything else is a
 * {@link TypeMismatchDataAccessException}.
 *
 * <p>Date/time: a {@code DateTime}/{@code DateTime64} value ({@code ZonedDateTime} in the column's
 * zone) converts to {@code Instant}, {@code OffsetDateTime}, {@code LocalDateTime} (wall time in the
 * column's zone) and {@code LocalDate}; a {@code Date} ({@code LocalDate}) to {@code LocalDateTime} at
 * midnight.
 */
final class ValueConverter {

    private static final ConversionService CONVERSION = DefaultConversionService.getSharedInstance();

    private ValueConverter() {
    }

    /**
     * @param value the value from the client, may be {@code null}
     * @param text ClickHouse's text form of the value, used when {@code requiredType} is {@code String}
     * @param requiredType the type to convert to (primitive types are boxed)
     * @return the converted value
     * @throws TypeMismatchDataAccessException if the value cannot be converted
     */
    @SuppressWarnings("unchecked")
    static <T> @Nullable T convert(@Nullable Object value, @Nullable String text, Class<T> requiredType) {
        Class<T> target = (Class<T>) ClassUtils.resolvePrimitiveIfNecessary(requiredType);
        if (value == null) {
            return null;
        }
        if (target.isInstance(value)) {
            return target.cast(value);
        }
        if (target == String.class) {
            return target.cast((text != null) ? text : value.toString());
        }
        Object temporal = convertTemporal(value, target);
        if (temporal != null) {
            return target.cast(temporal);
        }
        if (target == Boolean.class && value instanceof Number n) {
            return target.cast(isNonZero(n));
        }
        if (target == UUID.class && value instanceof String s) {
            return target.cast(uuid(s, value));
        }
        if (CONVERSION.canConvert(value.getClass(), target)) {
            try {
                return CONVERSION.convert(value, target);
            }
            catch (ConversionException ex) {
                throw mismatch(value, target, ex);
            }
        }
        throw mismatch(value, target, null);
    }

    private static @Nullable Object convertTemporal(Object value, Class<?> target) {
        if (value instanceof ZonedDateTime zdt) {
            if (target == Instant.class) {
                return zdt.toInstant();
            }
            if (target == OffsetDateTime.class) {
                return zdt.toOffsetDateTime();
            }
            if (target == LocalDateTime.class) {
                return zdt.toLocalDateTime();
            }
            if (target == LocalDate.class) {
                return zdt.toLocalDate();
            }
        }
        if (value instanceof LocalDate date && target == LocalDateTime.class) {
            return date.atStartOfDay();
        }
        return null;
    }

    private static boolean isNonZero(Number n) {
        if (n instanceof BigInteger bi) {
            return bi.signum() != 0;
        }
        if (n instanceof BigDecimal bd) {
            return bd.signum() != 0;
        }
        return n.doubleValue() != 0;
    }

    private static UUID uuid(String s, Object value) {
        try {
            return UUID.fromString(s);
        }
        catch (IllegalArgumentException ex) {
            throw mismatch(value, UUID.class, ex);
        }
    }

    private static TypeMismatchDataAccessException mismatch(Object value, Class<?> target, @Nullable Throwable cause) {
        return new TypeMismatchDataAccessException("Cannot convert value of type " + value.getClass().getName()
                + " to required type " + target.getName(), cause);
    }
}
