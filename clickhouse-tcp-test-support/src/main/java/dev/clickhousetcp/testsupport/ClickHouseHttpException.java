package dev.clickhousetcp.testsupport;

/**
 * Thrown by {@link ClickHouseServer#httpQuery(String)} when the server answers with an HTTP status other
 * than 200. The message carries the server's own error text (e.g. {@code Code: 60. DB::Exception: ...}).
 */
public final class ClickHouseHttpException extends RuntimeException {

    /** HTTP status of the response. */
    private final int statusCode;
    /** Response body: the server's error text. */
    private final String body;

    /**
     * @param statusCode HTTP status of the response
     * @param body response body, the server's error text
     * @param sql the statement that failed
     */
    public ClickHouseHttpException(int statusCode, String body, String sql) {
        super("HTTP " + statusCode + " from ClickHouse: " + body.strip() + " (query: " + abbreviate(sql) + ")");
        this.statusCode = statusCode;
        this.body = body;
    }

    /** @return HTTP status of the response */
    public int statusCode() {
        return statusCode;
    }

    /** @return the response body: the server's error text */
    public String body() {
        return body;
    }

    private static String abbreviate(String sql) {
        String oneLine = sql.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }
}
