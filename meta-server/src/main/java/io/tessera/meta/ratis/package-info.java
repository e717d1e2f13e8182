/**
 * The meta group's Raft layer: the state machine that applies logged changes, checkpoints for Raft
 * snapshots, the reply cache of retried calls, and the guard on the Raft port.
 */
package io.tessera.meta.ratis;
