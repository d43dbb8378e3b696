package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.DataType;

/**
 * One column of a table as {@code DESCRIBE TABLE} reports it.
 *
 * @param name        column name
 * @param type        its ClickHouse type
 * @param defaultKind {@code ""} (no default expression), {@code DEFAULT}, {@code MATERIALIZED},
 *                    {@code ALIAS} or {@code EPHEMERAL}
 */
public record TableColumn(String name, DataType type, String defaultKind) {
    /**
     * Whether an INSERT may name this column (not MATERIALIZED or ALIAS).
     *
     * @return {@code false} for MATERIALIZED and ALIAS columns, else {@code true}
     */
    public boolean insertable() {
        return !defaultKind.equals("MATERIALIZED") && !defaultKind.equals("ALIAS");
    }

    /**
     * Whether an INSERT may leave this column out (it has a DEFAULT, MATERIALIZED, ALIAS or EPHEMERAL expression).
     *
     * @return {@code true} when {@code defaultKind} is not empty
     */
    public boolean hasDefault() {
        return !defaultKind.isEmpty();
    }
}
