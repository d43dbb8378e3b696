package dev.clickhousetcp.mapping;

import java.util.List;

/**
 * The result of checking a class against a table ({@code DESCRIBE TABLE}): every mismatch found,
 * for reading rows of the table into the class and for inserting objects of the class into it.
 * Immutable.
 *
 * @param table    the table as named in the check
 * @param type     the checked class
 * @param problems every problem found (empty when the class fits)
 */
public record SchemaReport(String table, Class<?> type, List<Problem> problems) {

    /**
     * Copies the problems.
     *
     * @param table    the table as named in the check
     * @param type     the checked class
     * @param problems every problem found; copied into an unmodifiable list, so it must hold no {@code null}
     */
    public SchemaReport {
        problems = List.copyOf(problems);
    }

    /** What kind of mismatch. */
    public enum Kind {
        /** An inserted property (getter, record component, field) has no column of that name. */
        PROPERTY_WITHOUT_COLUMN,
        /** A column without a default expression has no property, so an insert cannot fill it. */
        COLUMN_WITHOUT_PROPERTY,
        /** A constructor parameter has no column, so rows cannot be read into the class. */
        PARAMETER_WITHOUT_COLUMN,
        /** The property maps to a MATERIALIZED or ALIAS column, which an insert cannot write. */
        NOT_INSERTABLE,
        /** Values of the column cannot be read into the property's Java type. */
        NOT_READABLE,
        /** Values of the property's Java type cannot be written to the column. */
        NOT_WRITABLE,
        /** Several properties match one column (or the class cannot be mapped at all). */
        AMBIGUOUS
    }

    /**
     * One mismatch.
     *
     * @param kind           what kind
     * @param column         the column, or {@code null}
     * @param clickHouseType the column's type, or {@code null}
     * @param property       the property ({@code Class.name (type, kind)}), or {@code null}
     * @param message        a readable explanation
     */
    public record Problem(Kind kind, String column, String clickHouseType, String property, String message) {
        @Override
        public String toString() {
            return kind + ": " + message;
        }
    }

    /**
     * Whether no problem was found.
     *
     * @return {@code true} when {@link #problems()} is empty
     */
    public boolean ok() {
        return problems.isEmpty();
    }

    @Override
    public String toString() {
        if (problems.isEmpty()) {
            return type.getName() + " fits table " + table;
        }
        StringBuilder sb = new StringBuilder(type.getName()).append(" does not fit table ").append(table).append(':');
        for (Problem p : problems) {
            sb.append("\n  ").append(p);
        }
        return sb.toString();
    }
}
