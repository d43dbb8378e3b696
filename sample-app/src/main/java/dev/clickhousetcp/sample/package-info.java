/**
 * Sample Spring Boot web app on the ClickHouse native TCP starter: event ingest and analytics.
 */
package dev.clickhousetcp.sample;
