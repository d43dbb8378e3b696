package dev.clickhousetcp.mapping;

/** What a read mapping does with a result column that no property of the class matches. */
public enum UnmappedColumns {
    /** Skip the column (the default, as Spring's {@code BeanPropertyRowMapper} does): {@code SELECT *} works with classes that map a subset. */
    IGNORE,
    /** Fail when the plan is built, naming the column. */
    FAIL
}
