/**
 * A data server's part in whole-file-system snapshots: the write gate that holds changes while a
 * snapshot is prepared, and the PREPARE/COMMIT/ABORT steps.
 */
package io.tessera.data.snapshot;
