/**
 * The replicated state every meta replica applies from the Raft log, in one RocksDB: the namespace
 * (inodes, directories, partial files), the data servers' states, the snapshot catalog and the
 * files whose shards are still to be reclaimed. One transaction per log entry; one small {@link
 * io.tessera.meta.state.NamespaceOp} class per kind of client change, every kind of logged change
 * registered in {@link io.tessera.meta.state.ReplicatedChanges}, and the reply cache of retried
 * calls.
 */
package io.tessera.meta.state;
