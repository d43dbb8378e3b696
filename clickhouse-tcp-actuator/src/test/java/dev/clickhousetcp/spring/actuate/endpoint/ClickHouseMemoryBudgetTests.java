package dev.clickhousetcp.spring.actuate.endpoint;

import java.util.List;

import dev.clickhousetcp.client.ClickHouseConnection;
import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.ConnectionConfig;
import dev.clickhousetcp.client.TlsConfig;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseMemoryBudget.Term;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link ClickHouseMemoryBudget}: the terms each configuration gets, and the arithmetic.
 */
class ClickHouseMemoryBudgetTests {

    private static final long MIB = 1 << 20;

    @Test
    void defaultsWithLz4() {
        ClickHouseMemoryBudget budget = ClickHouseMemoryBudget.of(ConnectionConfig.builder().build(), 20);
        assertThat(names(budget)).startsWith("socketReadBuffer", "socketWriteBuffer", "decompressedReader",
                "compressedFrameIn", "decompressedFrameIn", "insertFrameBuffer", "compressedFrameOut",
                "connectionObjects");
        assertThat(names(budget)).doesNotContain("blockBufferPool");
        assertThat(bytes(budget, "socketReadBuffer")).isEqualTo(65536);
        // LZ4_COMPRESSBOUND(1 MiB) = 1 MiB + 1 MiB / 255 + 16, plus the 9-byte header (and 16-byte checksum out)
        assertThat(bytes(budget, "compressedFrameIn")).isEqualTo(MIB + MIB / 255 + 16 + 9);
        assertThat(bytes(budget, "compressedFrameOut")).isEqualTo(MIB + MIB / 255 + 16 + 25);
        assertThat(bytes(budget, "decompressedFrameIn")).isEqualTo(MIB);
        assertThat(bytes(budget.perClient(), "blockBufferPool"))
            .isEqualTo(ClickHouseConnection.BUFFER_POOL_MAX_RETAINED_BYTES);
        long sum = budget.perConnection().stream().mapToLong(Term::bytes).sum();
        long perClient = budget.perClient().stream().mapToLong(Term::bytes).sum();
        assertThat(budget.perConnectionBytes()).isEqualTo(sum);
        assertThat(budget.perClientBytes()).isEqualTo(perClient);
        assertThat(budget.retainedBytes()).isEqualTo(perClient + 20 * sum);
        assertThat(budget.maxConnections()).isEqualTo(20);
        assertThat(budget.notCovered()).anySatisfy((text) -> assertThat(text).contains("server"));
    }

    @Test
    void blockBufferPoolTermIsTheConfiguredCapOnceForTheWholeClient() {
        ClickHouseMemoryBudget small = ClickHouseMemoryBudget
            .of(ConnectionConfig.builder().blockBufferPoolSize(8 * MIB).build(), 20);
        ClickHouseMemoryBudget none = ClickHouseMemoryBudget
            .of(ConnectionConfig.builder().blockBufferPoolSize(0).build(), 20);
        ClickHouseMemoryBudget defaults = ClickHouseMemoryBudget.of(ConnectionConfig.builder().build(), 20);
        ClickHouseMemoryBudget oneConnection = ClickHouseMemoryBudget.of(ConnectionConfig.builder().build(), 1);
        assertThat(bytes(small.perClient(), "blockBufferPool")).isEqualTo(8 * MIB);
        assertThat(bytes(none.perClient(), "blockBufferPool")).isZero();
        assertThat(defaults.perConnectionBytes()).isEqualTo(small.perConnectionBytes());
        // the cap (and its G1 rounding, when the JVM runs G1) counts once, not once per connection
        long g1 = ClickHouseMemoryBudget.g1RegionBytes() > 0 ? 2 : 1;
        assertThat(defaults.retainedBytes() - small.retainedBytes()).isEqualTo(g1 * 24 * MIB);
        assertThat(defaults.perClientBytes()).isEqualTo(oneConnection.perClientBytes()).isEqualTo(g1 * 32 * MIB);
        assertThat(defaults.budgetBytes())
            .isEqualTo(defaults.perClientBytes() + 20 * (defaults.perConnectionBytes() + defaults.perBusyConnectionBytes()));
    }

    @Test
    void noCompressionHasNoFrameBuffers() {
        ClickHouseMemoryBudget budget = ClickHouseMemoryBudget
            .of(ConnectionConfig.builder().compression(Compression.NONE).bufferSize(8192).build(), 1);
        assertThat(names(budget)).doesNotContain("decompressedReader", "compressedFrameIn", "decompressedFrameIn",
                "insertFrameBuffer", "compressedFrameOut");
        assertThat(bytes(budget, "socketWriteBuffer")).isEqualTo(8192);
    }

    @Test
    void zstdUsesItsOwnBound() {
        ClickHouseMemoryBudget budget = ClickHouseMemoryBudget
            .of(ConnectionConfig.builder().compression(Compression.zstd(3)).build(), 1);
        // ZSTD_COMPRESSBOUND(1 MiB) = 1 MiB + 1 MiB >> 8
        assertThat(bytes(budget, "compressedFrameOut")).isEqualTo(MIB + (MIB >> 8) + 25);
    }

    @Test
    void chunkedFramingAndTlsAddTheirBuffers() {
        ConnectionConfig config = ConnectionConfig.builder().preferChunked(true).tls(TlsConfig.builder().build()).build();
        ClickHouseMemoryBudget budget = ClickHouseMemoryBudget.of(config, 2);
        assertThat(bytes(budget, "chunkedFramingBuffer")).isEqualTo(65536);
        assertThat(bytes(budget, "tlsBuffers")).isGreaterThan(3 * 16 * 1024);
    }

    @Test
    void aServerThatRequiresChunkedFramingAddsTheChunkedBuffer() {
        ConnectionConfig config = ConnectionConfig.builder().build();
        assertThat(names(ClickHouseMemoryBudget.of(config, 1))).doesNotContain("chunkedFramingBuffer");
        assertThat(bytes(ClickHouseMemoryBudget.of(config, 1, true), "chunkedFramingBuffer")).isEqualTo(65536);
    }

    @Test
    void decodeLimitsBoundTheBusyConnection() {
        DecodeLimits limits = new DecodeLimits(1 << 16, 1 << 20, 16 * MIB, 1 << 20, 10, 4 << 20);
        ClickHouseMemoryBudget budget = ClickHouseMemoryBudget.of(ConnectionConfig.builder().limits(limits).build(),
                3);
        assertThat(bytes(budget.perBusyConnection(), "largestBlock")).isEqualTo(10 * 16 * MIB);
        long frame = bytes(budget.perBusyConnection(), "largestFrame");
        assertThat(frame).isEqualTo(4 * MIB + 4 * MIB + 4 * MIB / 255 + 16 + 9);
        assertThat(budget.perBusyConnectionBytes()).isEqualTo(10 * 16 * MIB + frame);
        assertThat(budget.budgetBytes())
            .isEqualTo(budget.perClientBytes() + 3 * (budget.perConnectionBytes() + budget.perBusyConnectionBytes()));
    }

    @Test
    void defaultLimitsSaturateInsteadOfOverflowing() {
        DecodeLimits huge = new DecodeLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE / 2,
                Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
        ClickHouseMemoryBudget budget = ClickHouseMemoryBudget.of(ConnectionConfig.builder().limits(huge).build(), 5);
        assertThat(bytes(budget.perBusyConnection(), "largestBlock")).isEqualTo(Long.MAX_VALUE);
        assertThat(budget.budgetBytes()).isEqualTo(Long.MAX_VALUE);
        ClickHouseMemoryBudget defaults = ClickHouseMemoryBudget.of(ConnectionConfig.builder().build(), 20);
        assertThat(bytes(defaults.perBusyConnection(), "largestBlock")).isEqualTo(10_000L << 30);
    }

    @Test
    void boundsAgreeWithTheCompressionLibraries() {
        for (int length : new int[] { 1, 4096, 100_000, 1 << 20, 1 << 27 }) {
            ConnectionConfig lz4 = ConnectionConfig.builder()
                .limits(new DecodeLimits(1, 1, 1, 1, 1, length))
                .build();
            long frame = bytes(ClickHouseMemoryBudget.of(lz4, 1).perBusyConnection(), "largestFrame");
            assertThat(frame).isEqualTo(length + 9
                    + net.jpountz.lz4.LZ4Factory.fastestJavaInstance().fastCompressor().maxCompressedLength(length));
        }
        ClickHouseMemoryBudget zstd = ClickHouseMemoryBudget
            .of(ConnectionConfig.builder().compression(Compression.zstd(3)).build(), 1);
        assertThat(bytes(zstd, "compressedFrameOut"))
            .isEqualTo(25 + com.github.luben.zstd.Zstd.compressBound(1 << 20));
    }

    @Test
    void g1OccupancyRoundsHumongousArraysToWholeRegions() {
        long region = 4 * MIB;
        assertThat(ClickHouseMemoryBudget.g1Occupancy(MIB, region)).isEqualTo(MIB);
        assertThat(ClickHouseMemoryBudget.g1Occupancy(2 * MIB, region)).isEqualTo(4 * MIB);
        assertThat(ClickHouseMemoryBudget.g1Occupancy(4 * MIB, region)).isEqualTo(8 * MIB);
        assertThat(ClickHouseMemoryBudget.g1Occupancy(8 * MIB, region)).isEqualTo(12 * MIB);
        assertThat(ClickHouseMemoryBudget.g1Occupancy(8 * MIB - 16, region)).isEqualTo(8 * MIB);
    }

    @Test
    void g1TermWhenTheJvmRunsG1() {
        ClickHouseMemoryBudget budget = ClickHouseMemoryBudget.of(ConnectionConfig.builder().build(), 1);
        if (ClickHouseMemoryBudget.g1RegionBytes() > 0) {
            assertThat(bytes(budget.perClient(), "g1HumongousRounding"))
                .isEqualTo(ClickHouseConnection.BUFFER_POOL_MAX_RETAINED_BYTES);
            assertThat(bytes(budget, "g1HumongousRounding")).isNotNegative();
        }
        else {
            assertThat(names(budget)).doesNotContain("g1HumongousRounding");
            assertThat(budget.perClient()).extracting(Term::name).containsExactly("blockBufferPool");
        }
    }

    @Test
    void maxConnectionsMustBePositive() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> ClickHouseMemoryBudget.of(ConnectionConfig.builder().build(), 0));
    }

    private static List<String> names(ClickHouseMemoryBudget budget) {
        return budget.perConnection().stream().map(Term::name).toList();
    }

    private static long bytes(ClickHouseMemoryBudget budget, String name) {
        return bytes(budget.perConnection(), name);
    }

    private static long bytes(List<Term> terms, String name) {
        return terms.stream().filter((term) -> term.name().equals(name)).findFirst().orElseThrow().bytes();
    }

}
