package dev.clickhousetcp.data;

/**
 * Validity flag shared by a block and its columns. Single-threaded: released by the stream that
 * produced the block when it moves on.
 */
public final class Lifetime {
    /** A lifetime that never ends (detached copies, insert columns). */
    public static final Lifetime FOREVER = new Lifetime("detached");

    private final String description;
    private boolean released;
    private Runnable onRelease;

    /**
     * A new lifetime, not yet released.
     *
     * @param description what the columns belong to, used in the message of the exception accessors throw
     *                    after release
     */
    public Lifetime(String description) {
        this.description = description;
    }

    /** Ends the lifetime: accessors of its columns throw from now on; the release hook runs once. */
    public void release() {
        if (this != FOREVER && !released) {
            released = true;
            if (onRelease != null) {
                Runnable r = onRelease;
                onRelease = null;
                r.run();
            }
        }
    }

    /**
     * Adds an action to run when this lifetime ends (buffers going back to their pool). Actions run in
     * the order they were added; on {@link #FOREVER} this does nothing.
     *
     * @param action the action to run once, on {@link #release()}
     */
    void onRelease(Runnable action) {
        if (this == FOREVER) {
            return;
        }
        Runnable prev = onRelease;
        onRelease = prev == null ? action : () -> {
            prev.run();
            action.run();
        };
    }

    /**
     * Whether {@link #release()} has been called.
     *
     * @return {@code true} once released; always {@code false} for {@link #FOREVER}
     */
    public boolean isReleased() {
        return released;
    }

    void check() {
        if (released) {
            throw new IllegalStateException("column of " + description
                    + " is no longer valid: the result stream moved past its block; use Column.copy() to keep it");
        }
    }
}
