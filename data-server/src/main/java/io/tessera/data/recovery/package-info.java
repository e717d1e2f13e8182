/**
 * A data server's part in recovery: whether it serves reads yet after a restart, the scrubber that
 * verifies stored shards, and the corruption it reports.
 */
package io.tessera.data.recovery;
