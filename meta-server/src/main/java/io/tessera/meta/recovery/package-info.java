/**
 * Recovery, run by the meta leader: which servers are down or stale, rebuilding and moving their
 * shards under stripe locks, parity repair, and the pace kept beside clients.
 */
package io.tessera.meta.recovery;
