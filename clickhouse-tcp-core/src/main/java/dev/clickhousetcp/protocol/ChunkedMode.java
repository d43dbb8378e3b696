package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseProtocolException;

/**
 * Negotiation of chunked packet framing (revision 54470+), per the rules of ClickHouse
 * {@code Connection::receiveHello}: an {@code _optional} preference follows the other side; two
 * strict preferences must agree.
 */
public final class ChunkedMode {
    private ChunkedMode() {
    }

    /**
     * @param server server's preference for this direction ({@code chunked}, {@code notchunked},
     *               {@code chunked_optional}, {@code notchunked_optional})
     * @param client our preference for the same direction
     * @param direction "send" or "receive", for messages
     * @return whether this direction is chunked
     * @throws ClickHouseProtocolException when strict preferences disagree or a value is unknown
     */
    public static boolean negotiate(String server, String client, String direction) {
        check(server, direction);
        check(client, direction);
        if (server.endsWith("_optional")) {
            return client.startsWith("chunked");
        }
        if (client.endsWith("_optional")) {
            return server.startsWith("chunked");
        }
        if (!server.equals(client)) {
            throw new ClickHouseProtocolException("incompatible chunked framing for " + direction + ": server requires '"
                    + server + "', client requires '" + client + "'");
        }
        return server.equals("chunked");
    }

    private static void check(String v, String direction) {
        switch (v) {
            case "chunked", "notchunked", "chunked_optional", "notchunked_optional" -> {
            }
            default -> throw new ClickHouseProtocolException("unknown chunked framing value '" + v + "' for " + direction);
        }
    }
}
