package dev.clickhousetcp.mapping;

/**
 * How compiled mappers reach constructors, setters, getters and fields.
 *
 * <table>
 * <caption>modes</caption>
 * <tr><th>mode</th><th>mechanism</th><th>generates classes at run time</th></tr>
 * <tr><td>{@link #LAMBDA}</td><td>{@code LambdaMetafactory} for setters, getters and no-arg
 * constructors (hidden classes, inlined by the JIT); method-handle trees for multi-argument
 * constructors; method handles for fields</td><td>yes</td></tr>
 * <tr><td>{@link #METHOD_HANDLES}</td><td>plain {@code MethodHandle}s only</td><td>no class of its
 * own (HotSpot may still compile lambda forms internally)</td></tr>
 * <tr><td>{@link #REFLECTION}</td><td>{@code java.lang.reflect} calls; works in a GraalVM native
 * image once the classes are registered for reflection (Spring AOT runtime hints)</td><td>no</td></tr>
 * </table>
 *
 * <p>{@link #AUTO} picks {@link #REFLECTION} inside a native image (system property
 * {@code org.graalvm.nativeimage.imagecode} set) and {@link #LAMBDA} elsewhere. The system property
 * {@value #PROPERTY} ({@code lambda}, {@code method_handles}, {@code reflection}) overrides
 * {@code AUTO}. Whatever the mode, the per-column loops are the same plain Java code; only the final
 * call that stores or loads a property differs.
 */
public enum AccessMode {
    /** {@link #REFLECTION} in a native image, else {@link #LAMBDA} (or the {@value #PROPERTY} system property). */
    AUTO,
    /** LambdaMetafactory-compiled accessors (fastest on HotSpot). */
    LAMBDA,
    /** MethodHandles without LambdaMetafactory. */
    METHOD_HANDLES,
    /** java.lang.reflect only: no run-time bytecode generation at all. */
    REFLECTION;

    /** System property that selects the mode {@link #AUTO} resolves to. */
    public static final String PROPERTY = "clickhousetcp.mapping.access";

    /**
     * The concrete mode: {@code this}, or what {@link #AUTO} means in this JVM.
     *
     * @return {@code this} unless it is {@link #AUTO}; for {@code AUTO}, the mode the {@value #PROPERTY}
     *         system property names (case-insensitive, {@code -} or {@code _} between words) when it is set,
     *         else {@link #REFLECTION} in a native image and {@link #LAMBDA} elsewhere
     * @throws IllegalArgumentException when the system property names no mode
     */
    public AccessMode resolve() {
        if (this != AUTO) {
            return this;
        }
        String p = System.getProperty(PROPERTY);
        if (p != null && !p.isBlank()) {
            return valueOf(p.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        }
        return System.getProperty("org.graalvm.nativeimage.imagecode") != null ? REFLECTION : LAMBDA;
    }
}
