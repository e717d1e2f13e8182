/**
 * The meta group's Raft layer: the thin state machine that orders logged changes into namespace
 * transactions, committed reads, checkpoints for Raft snapshots and file-system snapshots, the log
 * submitter and the guard on the Raft port.
 */
package io.tessera.meta.ratis;
