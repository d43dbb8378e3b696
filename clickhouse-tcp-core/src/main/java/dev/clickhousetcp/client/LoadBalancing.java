package dev.clickhousetcp.client;

/** How a pool with several endpoints picks the server for a new connection. */
public enum LoadBalancing {
    /** The first endpoint that is up; later ones only when earlier ones fail (failover). */
    IN_ORDER,
    /**
     * Each new connection goes to the next endpoint in turn, skipping endpoints that are down. When an
     * endpoint fails to connect (refused, or no answer within the connect or handshake timeout, or within
     * the caller's acquire or query timeout when at least half of it went to that attempt), it is down
     * for the failover back-off, and the attempt (if the caller has time left) takes the next turn of the
     * rotation: the endpoints that are up share the turns evenly, and the one after the failed endpoint
     * does not get its share.
     */
    ROUND_ROBIN,
    /** A random endpoint among those that are up. */
    RANDOM
}
