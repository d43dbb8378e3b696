package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;

/**
 * Decodes the Exception server packet: Int32 code, String name, String message, String stack trace,
 * Bool has_nested, then the nested exception (ClickHouse {@code writeException} in
 * {@code src/IO/WriteHelpers.cpp}). Nesting is bounded.
 */
public final class ServerExceptionCodec {
    private static final int MAX_DEPTH = 32;

    private ServerExceptionCodec() {
    }

    /**
     * Reads an Exception packet body (after the packet type), nested exceptions included.
     *
     * @param in the connection's reader, positioned after the packet type
     * @return the server's exception, its {@code DB::Exception: } message prefix removed, with the nested
     *         exception as its cause; returned, not thrown
     * @throws IOException when reading fails or the stream ends
     * @throws ClickHouseProtocolException when the nesting is deeper than 32
     */
    public static ClickHouseServerException read(BinaryReader in) throws IOException {
        return read(in, 0);
    }

    private static ClickHouseServerException read(BinaryReader in, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new ClickHouseProtocolException("server exception nested deeper than " + MAX_DEPTH);
        }
        int code = in.readInt32();
        String name = in.readString();
        String message = in.readString();
        String stack = in.readString();
        boolean hasNested = in.readBoolean();
        ClickHouseServerException nested = hasNested ? read(in, depth + 1) : null;
        return new ClickHouseServerException(code, name, stripPrefix(message), stack, nested);
    }

    /** The server prefixes its message with its own name ("DB::Exception: ..."); drop that. */
    private static String stripPrefix(String message) {
        String p = "DB::Exception: ";
        return message.startsWith(p) ? message.substring(p.length()) : message;
    }
}
