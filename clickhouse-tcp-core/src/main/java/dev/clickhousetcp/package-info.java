/**
 * The client's exceptions, one family for every failure a caller can meet: {@link
 * dev.clickhousetcp.ClickHouseException} and its subclasses for the server's own errors (with
 * ClickHouse's error code and name), authentication, connections (I/O, broken or closed), timeouts
 * (which deadline expired), malformed or hostile server data (protocol) and values or type names this
 * client cannot map (type). All are unchecked; none of them leaves a connection in a pool that is not
 * known to be healthy.
 *
 * <p>Public API. Depends on nothing else of the client.
 */
package dev.clickhousetcp;
