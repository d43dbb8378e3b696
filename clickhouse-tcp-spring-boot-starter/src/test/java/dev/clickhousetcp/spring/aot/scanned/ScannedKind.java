package dev.clickhousetcp.spring.aot.scanned;

/** An enum used by a scanned record. */
public enum ScannedKind {

    /** One. */
    ONE,
    /** Two. */
    TWO
}
