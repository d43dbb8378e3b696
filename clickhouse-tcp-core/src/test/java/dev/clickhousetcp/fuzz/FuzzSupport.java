package dev.clickhousetcp.fuzz;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Shared pieces of the {@code @FuzzTest} targets: the per-input time bound, the walk over a decoded
 * block that every decoder target does (so lazily decoded values are decoded too), and corpus file
 * helpers. Not thread-safe where it keeps state; the targets are single-threaded.
 */
public final class FuzzSupport {
    /**
     * Per-input hang bound in seconds: a JUnit timeout per invocation in regression mode, and
     * libFuzzer's {@code -timeout} in fuzzing mode (Jazzer translates the annotation). Inputs take
     * microseconds; only a hang reaches it.
     */
    public static final long INPUT_TIMEOUT_SECONDS = 30;

    /** Rows of each column whose values are read after a successful decode (the rest are skipped). */
    public static final int ROWS_TOUCHED = 256;

    private FuzzSupport() {
    }

    /** Reads the first {@link #ROWS_TOUCHED} values of every column of {@code block} in every form. */
    public static void touch(Block block) {
        for (int c = 0; c < block.columnCount(); c++) {
            touch(block.column(c));
        }
    }

    /** Reads the first {@link #ROWS_TOUCHED} values of {@code column} as objects and as text. */
    public static void touch(Column column) {
        int n = Math.min(column.size(), ROWS_TOUCHED);
        for (int row = 0; row < n; row++) {
            column.isNull(row);
            Object o = column.getObject(row);
            if (o != null) {
                o.hashCode();
            }
            column.getString(row);
        }
    }

    /** The whole content of a test resource, or {@code null} when absent. */
    public static byte[] resource(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code a} followed by {@code b}. */
    public static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
