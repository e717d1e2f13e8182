package io.tessera.data.recovery;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files with a shard here that failed its checksum (found by a read or by the scrubber), until a
 * heartbeat has reported them: the meta group then marks the file stale on this server, and
 * recovery rewrites this server's shards of it.
 */
public final class CorruptionReport {
  private static final Logger LOG = LoggerFactory.getLogger(CorruptionReport.class);

  private final Set<Long> pending = new LinkedHashSet<>();

  public synchronized void found(long fileId, String what) {
    if (pending.add(fileId)) {
      LOG.warn("Corrupt shard of file {} ({}); reporting it for repair", fileId, what);
    }
  }

  /** Files to report in the next heartbeat, at most {@code limit}. */
  public synchronized List<Long> pending(int limit) {
    List<Long> out = new ArrayList<>();
    for (long f : pending) {
      if (out.size() == limit) {
        break;
      }
      out.add(f);
    }
    return out;
  }

  /** A heartbeat carrying these was applied by the meta group. */
  public synchronized void reported(List<Long> fileIds) {
    fileIds.forEach(pending::remove);
  }
}
