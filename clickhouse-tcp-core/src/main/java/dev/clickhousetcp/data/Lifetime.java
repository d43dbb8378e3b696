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

    public Lifetime(String description) {
        this.description = description;
    }

    public void release() {
        if (this != FOREVER) {
            released = true;
        }
    }

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
