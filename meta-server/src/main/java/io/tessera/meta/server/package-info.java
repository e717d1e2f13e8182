/**
 * A meta replica process: its settings, start and stop, the handler of meta.proto requests,
 * heartbeats from data servers, group commit of changes, and the reclaimer of deleted files'
 * shards.
 */
package io.tessera.meta.server;
