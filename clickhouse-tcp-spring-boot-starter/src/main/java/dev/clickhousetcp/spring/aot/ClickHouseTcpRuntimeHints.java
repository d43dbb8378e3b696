package dev.clickhousetcp.spring.aot;

import dev.clickhousetcp.mapping.ClickHouseColumn;
import dev.clickhousetcp.mapping.ClickHouseConstructor;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The reflection the client itself needs in a GraalVM native image, registered with every application that has
 * the starter on its class path (through {@code META-INF/spring/aot.factories}):
 * <ul>
 * <li>LZ4, the default network compression: lz4-java picks its implementation by class name and reads its
 * {@code INSTANCE} field reflectively ({@code LZ4Factory}); its pure-Java implementations are registered (the
 * JNI one needs the native library, which a native image does not bundle, so lz4-java falls back to Java);</li>
 * <li>the mapping annotations {@link ClickHouseColumn} and {@link ClickHouseConstructor}, read from the
 * application's mapped classes.</li>
 * </ul>
 * The application's mapped classes are registered through {@link ClickHouseMappedTypes}. ZSTD compression
 * relies on zstd-jni's own metadata in the GraalVM reachability metadata repository.
 */
public class ClickHouseTcpRuntimeHints implements RuntimeHintsRegistrar {

    /** lz4-java's pure-Java implementations, found by {@code LZ4Factory} as {@code net.jpountz.lz4.LZ4<impl><kind>}. */
    static final String[] LZ4_CLASSES = { "net.jpountz.lz4.LZ4JavaSafeCompressor",
            "net.jpountz.lz4.LZ4JavaSafeFastDecompressor", "net.jpountz.lz4.LZ4JavaSafeSafeDecompressor",
            "net.jpountz.lz4.LZ4HCJavaSafeCompressor", "net.jpountz.lz4.LZ4JavaUnsafeCompressor",
            "net.jpountz.lz4.LZ4JavaUnsafeFastDecompressor", "net.jpountz.lz4.LZ4JavaUnsafeSafeDecompressor",
            "net.jpountz.lz4.LZ4HCJavaUnsafeCompressor" };

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        for (String lz4 : LZ4_CLASSES) {
            hints.reflection().registerTypeIfPresent(classLoader, lz4, MemberCategory.ACCESS_PUBLIC_FIELDS,
                    MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
        }
        hints.reflection().registerType(ClickHouseColumn.class, MemberCategory.INVOKE_PUBLIC_METHODS);
        hints.reflection().registerType(ClickHouseConstructor.class, MemberCategory.INVOKE_PUBLIC_METHODS);
    }
}
