/**
 * The proxy process: data.proto forwarded through the scheduler without copying payloads, qos.proto
 * for totals and status, and the settings followed from the meta group.
 */
package io.tessera.qos.proxy;
