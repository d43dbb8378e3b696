package dev.clickhousetcp.client;

/**
 * A server address.
 *
 * @param host host name or IP literal
 * @param port native protocol port (9000 plain, 9440 TLS by default on ClickHouse servers)
 */
public record Endpoint(String host, int port) {
    /**
     * Checks the host and port.
     *
     * @param host host name or IP literal (an IPv6 literal without brackets)
     * @param port native protocol port, 1 to 65535
     * @throws IllegalArgumentException when the host is {@code null} or blank, or the port is not 1 to 65535
     */
    public Endpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("endpoint host must not be empty");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("endpoint port must be 1..65535: " + port);
        }
    }

    /**
     * Parses {@code host}, {@code host:port} or {@code [ipv6]:port}.
     *
     * @param text        the address; surrounding whitespace is ignored, and an IPv6 literal without
     *                    brackets is taken as a host without a port
     * @param defaultPort the port when none is given
     * @return the endpoint
     * @throws IllegalArgumentException when the port is not a number in 1 to 65535, the host is empty, or text
     *                                  follows a bracketed IPv6 literal other than {@code :port}
     */
    public static Endpoint parse(String text, int defaultPort) {
        return parseOrThrow(text.trim(), defaultPort);
    }

    private static Endpoint parseOrThrow(String t, int defaultPort) {
        String text = t;
        if (t.startsWith("[")) {
            int end = t.indexOf(']');
            if (end < 0) {
                throw new IllegalArgumentException("malformed endpoint '" + text + "': no closing ']'");
            }
            String host = t.substring(1, end);
            String rest = t.substring(end + 1);
            if (rest.isEmpty()) {
                return new Endpoint(host, defaultPort);
            }
            if (!rest.startsWith(":")) {
                throw new IllegalArgumentException("malformed endpoint '" + text + "': expected ':port' after ']'");
            }
            return new Endpoint(host, port(rest.substring(1), text));
        }
        int colon = t.lastIndexOf(':');
        if (colon > 0 && t.indexOf(':') == colon) {
            return new Endpoint(t.substring(0, colon), port(t.substring(colon + 1), text));
        }
        return new Endpoint(t, defaultPort);
    }

    /** The digits of a port; Integer.parseInt alone would also take a sign. */
    private static int port(String digits, String text) {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 5) {
            throw new IllegalArgumentException("malformed endpoint '" + text + "': the port must be a number, got '"
                    + digits + "'");
        }
        return Integer.parseInt(digits);
    }

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
