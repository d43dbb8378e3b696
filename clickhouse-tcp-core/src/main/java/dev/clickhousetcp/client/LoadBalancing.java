package dev.clickhousetcp.client;

/** How a pool with several endpoints picks the server for a new connection. */
public enum LoadBalancing {
    /** The first endpoint that is up; later ones only when earlier ones fail (failover). */
    IN_ORDER,
    /** Each new connection goes to the next endpoint in turn, skipping endpoints that are down. */
    ROUND_ROBIN,
    /** A random endpoint among those that are up. */
    RANDOM
}
