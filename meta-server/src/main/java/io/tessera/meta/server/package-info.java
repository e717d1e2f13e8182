/**
 * A meta replica process: its settings, start and stop, the handler of meta.proto requests (routing
 * to namespace changes, reads and the coordinators registered in {@link
 * io.tessera.meta.server.CoordinatorOps}), server retirement, the cluster status report, heartbeats
 * from data servers, group commit of changes, and the reclaimer of deleted files' shards.
 */
package io.tessera.meta.server;
