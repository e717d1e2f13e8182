/**
 * The client's striping core, not an API: calls to the meta group and to data servers, striped
 * reads with degraded decoding, two-phase parity writes and truncates under stripe locks, the
 * client's view of which servers are down.
 */
package io.tessera.client.internal;
