package dev.clickhousetcp.io;

/**
 * The method byte of a ClickHouse compressed frame, per ClickHouse
 * {@code src/Compression/CompressionInfo.h} ({@code CompressionMethodByte}). Only the three methods
 * ClickHouse uses for whole-stream network compression are supported; any other byte in a frame is
 * rejected as a protocol error.
 */
public enum CompressionMethod {
    /** Checksummed frame whose payload is stored as is (ClickHouse codec {@code NONE}, byte 0x02). */
    NONE(0x02, "none"),
    /** LZ4 block format, no LZ4 frame header (byte 0x82). */
    LZ4(0x82, "lz4"),
    /** One zstd frame (byte 0x90). */
    ZSTD(0x90, "zstd");

    private final int code;
    private final String settingValue;

    CompressionMethod(int code, String settingValue) {
        this.code = code;
        this.settingValue = settingValue;
    }

    /**
     * The method byte written into a frame header (unsigned, 0..255).
     *
     * @return 0x02, 0x82 or 0x90
     */
    public int code() {
        return code;
    }

    /**
     * The value of the server setting {@code network_compression_method} that selects this method, in
     * lower case: servers before the codec framework (18.x) accept only lower case, later ones any case.
     *
     * @return {@code none}, {@code lz4} or {@code zstd}
     */
    public String settingValue() {
        return settingValue;
    }

    /**
     * The method for a frame's method byte, or {@code null} when the byte is not one of the three.
     *
     * @param code the method byte; only its low 8 bits are looked at, so a signed {@code byte} works too
     * @return the method, or {@code null} for an unsupported byte (e.g. 0x91 for Multiple codecs)
     */
    public static CompressionMethod ofCode(int code) {
        return switch (code & 0xFF) {
            case 0x02 -> NONE;
            case 0x82 -> LZ4;
            case 0x90 -> ZSTD;
            default -> null;
        };
    }
}
