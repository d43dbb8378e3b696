package dev.clickhousetcp.spring.core;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Unit tests of {@link QueryParameterValues}; {@link ClickHouseTcpTemplateTests} checks that the server
 * reads the prepared values back.
 */
class QueryParameterValuesTests {

    @Test
    void plainValuesPassThrough() {
        UUID uuid = UUID.randomUUID();
        for (Object value : new Object[] { "it's", 'c', 42, 42L, 1.5, 1.5f, BigDecimal.ONE, true, uuid,
                Thread.State.NEW, LocalDate.of(2024, 1, 2) }) {
            assertThat(QueryParameterValues.prepare(value)).isSameAs(value);
        }
        assertThat(QueryParameterValues.prepare(null)).isNull();
        assertThat(QueryParameterValues.prepare(new AtomicLong(7))).isEqualTo(new BigDecimal(7));
    }

    @Test
    void dateTimesAreRendered() {
        assertThat(QueryParameterValues.prepare(LocalDateTime.of(2024, 1, 2, 3, 4, 5))).isEqualTo("2024-01-02 03:04:05");
        assertThat(QueryParameterValues.prepare(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000)))
            .isEqualTo("2024-01-02 03:04:05.12");
        assertThat(QueryParameterValues.prepare(LocalTime.of(3, 4))).isEqualTo("03:04:00");
        assertThat(QueryParameterValues.prepare(LocalTime.of(3, 4, 5, 1))).isEqualTo("03:04:05.000000001");
        assertThat(QueryParameterValues.prepare(Instant.ofEpochSecond(1704164645))).isEqualTo("1704164645");
        assertThat(QueryParameterValues.prepare(Instant.ofEpochSecond(1704164645, 123_000_000)))
            .isEqualTo("1704164645.123");
        assertThat(QueryParameterValues.prepare(Instant.ofEpochSecond(-2, 500_000_000))).isEqualTo("-00001.5");
        assertThat(QueryParameterValues.prepare(Instant.EPOCH)).isEqualTo("00000");
        assertThat(QueryParameterValues.prepare(Instant.ofEpochMilli(1_250))).isEqualTo("00001.25");
        assertThat(QueryParameterValues.prepare(Instant.ofEpochSecond(-100))).isEqualTo("-00100");
        assertThat(QueryParameterValues.prepare(OffsetDateTime.parse("2024-01-02T04:04:05+01:00")))
            .isEqualTo("1704164645");
        assertThat(QueryParameterValues.prepare(java.sql.Date.valueOf("2024-01-02"))).isEqualTo("2024-01-02");
        assertThat(QueryParameterValues.prepare(new java.util.Date(1704164645123L))).isEqualTo("1704164645.123");
    }

    @Test
    void containersArePreparedElementByElement() {
        assertThat(QueryParameterValues.prepare(List.of(Instant.ofEpochSecond(5), "a")))
            .isEqualTo(List.of("00005", "a"));
        assertThat(QueryParameterValues.prepare(new int[] { 1, 2 })).isEqualTo(List.of(1, 2));
        assertThat(QueryParameterValues.prepare(Arrays.asList(1, null))).isEqualTo(Arrays.asList(1, null));
        assertThat(QueryParameterValues.prepare(Map.of("k", List.of(LocalTime.NOON))))
            .isEqualTo(Map.of("k", List.of("12:00:00")));
    }

    @Test
    void unsupportedTypesAreRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> QueryParameterValues.prepare(new Object()))
            .withMessageContaining("java.lang.Object");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> QueryParameterValues.prepare(List.of("x", new StringBuilder().append(1), new Object())));
    }
}
