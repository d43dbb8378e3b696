/**
 * Rows to Java objects and back: mappers compiled once per target type (records, POCOs with
 * constructors, setters or fields) that read a block's columns through their typed accessors, and
 * extract a POCO's fields into insert columns; the name and type matching rules, and the schema check
 * of a class against a table.
 *
 * <p>Public API. Uses {@code data} (column views and their types); not
 * {@code client}, {@code protocol} or {@code io}.
 */
package dev.clickhousetcp.mapping;
