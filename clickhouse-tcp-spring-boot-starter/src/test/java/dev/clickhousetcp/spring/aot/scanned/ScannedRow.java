package dev.clickhousetcp.spring.aot.scanned;

/**
 * A mapped record found by package scanning.
 * @param id the id
 * @param kind the kind
 */
public record ScannedRow(long id, ScannedKind kind) {
}
