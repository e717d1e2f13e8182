package io.tessera.data.store;

import java.io.IOException;

/**
 * A write skipped a server of its file that this store has no dirty-file entry for, and the writer
 * did not say it recorded the server as stale in the meta group: applying it could leave a stale
 * shard nobody knows about. Nothing was applied.
 */
public final class UnrecordedSkipException extends IOException {
  public UnrecordedSkipException(String server, long fileId) {
    super(
        "the write skips data server "
            + server
            + ", which is not recorded as stale for file "
            + fileId
            + " here: record it as stale in the meta group, then retry");
  }
}
