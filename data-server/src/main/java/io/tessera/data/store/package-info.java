/**
 * The shard store: shard versions by epoch in one RocksDB (the version index, values inline or in
 * value files), stripe-lock records, the dirty-file log, layout fences, garbage collection of
 * versions no snapshot sees, and scans.
 */
package io.tessera.data.store;
