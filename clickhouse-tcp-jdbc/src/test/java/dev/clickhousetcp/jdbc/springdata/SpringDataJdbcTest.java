package dev.clickhousetcp.jdbc.springdata;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import java.math.BigInteger;
import java.sql.SQLFeatureNotSupportedException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spring Data JDBC repositories over the driver through Boot's auto-configuration on 26.7 (JDBC.md AT-18): the
 * dialect found through spring.factories, inserts with application-assigned IDs, one INSERT for a batch of 10,000,
 * reads, paging with LIMIT/OFFSET, count, lightweight DELETE and the update of an existing aggregate.
 */
@ClickHouseTest
class SpringDataJdbcTest {
    private static final String DB = "sdj_" + Long.toHexString(System.nanoTime());
    private static ConfigurableApplicationContext context;
    private static EventRepository repository;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start() {
        ClickHouseServer server = ClickHouseServers.modern();
        context = SpringDataContext.start(SpringDataContext.url(server, "default"), 2);
        jdbc = context.getBean(JdbcTemplate.class);
        jdbc.execute("CREATE DATABASE " + DB);
        // lightweight UPDATE needs the block number and offset columns (ClickHouse 25.7+)
        jdbc.execute("CREATE TABLE " + DB + ".event (id UUID, name String, amount UInt64, at DateTime64(3),"
                + " tags Array(String)) ENGINE = MergeTree ORDER BY id"
                + " SETTINGS enable_block_number_column = 1, enable_block_offset_column = 1");
        jdbc.execute("CREATE TABLE " + DB + ".versioned_event (id UUID, version Int64, name String)"
                + " ENGINE = MergeTree ORDER BY id"
                + " SETTINGS enable_block_number_column = 1, enable_block_offset_column = 1");
        jdbc.execute("CREATE TABLE " + DB + ".preset_event (id UUID, name String) ENGINE = MergeTree ORDER BY id");
        context.close();
        context = SpringDataContext.start(SpringDataContext.url(server, DB), 2);
        repository = context.getBean(EventRepository.class);
        jdbc = context.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        if (jdbc != null) {
            jdbc.execute("DROP DATABASE IF EXISTS " + DB);
        }
        if (context != null) {
            context.close();
        }
    }

    private static long queryLog(String condition) {
        jdbc.execute("SYSTEM FLUSH LOGS");
        return jdbc.queryForObject("SELECT count() FROM system.query_log WHERE type = 'QueryFinish' AND "
                + "event_date >= yesterday() AND has(databases, '" + DB + "') AND " + condition, Long.class);
    }

    @Test
    void theDialectIsOurs() {
        JdbcDialect dialect = context.getBean(JdbcDialect.class);
        assertThat(dialect).isInstanceOf(ClickHouseDialect.class);
        assertThat(dialect.getIdentifierProcessing().quote("Mixed")).isEqualTo("`Mixed`");
        assertThat(dialect.getIdentifierProcessing().standardizeLetterCase("Mixed")).isEqualTo("Mixed");
    }

    @Test
    void saveFindCountDeleteAndPage() {
        LocalDateTime at = LocalDateTime.of(2026, 3, 4, 5, 6, 7, 891_000_000);
        BigInteger big = new BigInteger("18446744073709551615"); // UInt64 max, above Long.MAX_VALUE
        Event saved = repository.save(new Event("single", big, at, List.of("a", "b'c")));
        assertThat(saved.getId()).as("set by the BeforeConvertCallback").isNotNull();

        Event found = repository.findById(saved.getId()).orElseThrow();
        assertThat(found.getName()).isEqualTo("single");
        assertThat(found.getAmount()).isEqualTo(big);
        assertThat(found.getAt()).isEqualTo(at);
        assertThat(found.getTags()).containsExactly("a", "b'c");
        assertThat(jdbc.queryForObject("SELECT toString(amount) FROM event WHERE id = ?", String.class, saved.getId()))
                .isEqualTo("18446744073709551615");

        List<Event> batch = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            batch.add(new Event(String.format("batch-%05d", i), BigInteger.valueOf(i), at.plusSeconds(i),
                    List.of("t" + i)));
        }
        long insertsBefore = queryLog("query_kind = 'Insert'");
        List<Event> all = new ArrayList<>();
        repository.saveAll(batch).forEach(all::add);
        assertThat(all).hasSize(10_000).allSatisfy(e -> assertThat(e.getId()).isNotNull());
        assertThat(queryLog("query_kind = 'Insert'") - insertsBefore).as("INSERT statements for saveAll").isEqualTo(1);
        assertThat(queryLog("query_kind = 'Insert' AND written_rows = 10000")).isEqualTo(1);

        assertThat(repository.count()).isEqualTo(10_001);

        Page<Event> page = repository.findAll(PageRequest.of(2, 10, Sort.by("name")));
        assertThat(page.getContent()).extracting(Event::getName)
                .containsExactly("batch-00020", "batch-00021", "batch-00022", "batch-00023", "batch-00024",
                        "batch-00025", "batch-00026", "batch-00027", "batch-00028", "batch-00029");
        assertThat(page.getTotalElements()).isEqualTo(10_001);
        assertThat(queryLog("query LIKE '%ORDER BY `event`.`name` ASC LIMIT 10 OFFSET 20%'")).isEqualTo(1);

        Event first = all.get(0);
        repository.deleteById(first.getId());
        assertThat(repository.findById(first.getId())).isEmpty();
        assertThat(repository.count()).isEqualTo(10_000);
    }

    /**
     * Spring Data JDBC 4.0 updates an aggregate without a version with {@code UPDATE ... WHERE id = ?} and ignores
     * the update count. ClickHouse 26.7 applies the lightweight UPDATE but reports no written rows for it
     * ({@code system.query_log.written_rows} 0), and the driver's update count is that 0: {@code save} succeeds and
     * the row changes.
     */
    @Test
    void saveOfAnExistingAggregateUpdatesItThoughTheUpdateCountIsZero() {
        Event e = repository.save(new Event("before", BigInteger.ONE, LocalDateTime.of(2026, 1, 1, 0, 0), List.of()));
        e.setName("after");
        repository.save(e);
        assertThat(repository.findById(e.getId()).orElseThrow().getName()).isEqualTo("after");
        assertThat(queryLog("query_kind = 'Update' AND query LIKE '%after%' AND written_rows = 0")).isEqualTo(1);
        Integer count = jdbc.execute((java.sql.Connection c) -> {
            try (java.sql.PreparedStatement ps = c.prepareStatement("UPDATE event SET name = ? WHERE id = ?")) {
                ps.setString(1, "again");
                ps.setObject(2, e.getId());
                return ps.executeUpdate();
            }
        });
        assertThat(count).as("the update count the driver reports for a lightweight UPDATE of one row").isZero();
    }

    /**
     * isNew is "id is null" for an aggregate without a version: one whose ID the application set before the first
     * save is taken as existing, and save() runs an UPDATE that matches nothing. Spring Data does not check the
     * count, so the aggregate is silently not stored. {@link PresetIdEvent} (Persistable) is the working pattern.
     */
    @Test
    void aPresetIdWithoutPersistableIsSilentlyNotStoredAndPersistableIsTheFix() {
        Event e = new Event("preset", BigInteger.TWO, LocalDateTime.of(2026, 1, 1, 0, 0), List.of());
        e.setId(UUID.randomUUID());
        repository.save(e);
        assertThat(repository.findById(e.getId())).isEmpty();

        PresetIdEventRepository presets = context.getBean(PresetIdEventRepository.class);
        UUID id = UUID.randomUUID();
        presets.save(PresetIdEvent.create(id, "inserted"));
        assertThat(presets.findById(id).orElseThrow().getName()).isEqualTo("inserted");
        PresetIdEvent read = presets.findById(id).orElseThrow();
        assertThat(read.isNew()).as("read back: existing").isFalse();

        // preset_event has no block number column: ClickHouse refuses the lightweight UPDATE (code 48)
        read.setName("updated");
        assertThatThrownBy(() -> presets.save(read)).isInstanceOf(InvalidDataAccessApiUsageException.class)
                .cause().isInstanceOf(SQLFeatureNotSupportedException.class)
                .hasMessageContaining("Lightweight updates are not supported");
    }

    /**
     * With a {@code @Version} Spring Data checks the update count: the lightweight UPDATE runs (the row gets the
     * new version and name), the count is 0, and save() throws OptimisticLockingFailureException.
     */
    @Test
    void saveOfAVersionedAggregateFailsWithOptimisticLockingFailure() {
        VersionedEventRepository versioned = context.getBean(VersionedEventRepository.class);
        VersionedEvent e = versioned.save(new VersionedEvent(UUID.randomUUID(), "v0"));
        assertThat(e.getVersion()).isZero();
        e.setName("v1");
        assertThatThrownBy(() -> versioned.save(e)).isInstanceOf(OptimisticLockingFailureException.class)
                .hasMessageContaining(e.getId().toString());
        assertThat(jdbc.queryForList("SELECT name, version FROM versioned_event WHERE id = ?", e.getId()))
                .as("the server applied the update").singleElement()
                .satisfies(row -> assertThat(row).containsEntry("name", "v1").containsEntry("version", 1L));
    }
}
