/**
 * Whole-file-system snapshots on the meta side: the coordinator of PREPARE/COMMIT across data
 * servers, and read-only views of a snapshot's namespace.
 */
package io.tessera.meta.snapshot;
