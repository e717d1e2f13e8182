package io.tessera.client.admin;

import java.time.Instant;
import java.util.List;

/**
 * A snapshot of the whole file system.
 *
 * @param name its name; its files are at {@code /.snapshots/<name>/...}
 * @param epoch the global epoch it froze: it holds every shard version stamped at or below it
 * @param created when it was committed
 * @param tookMillis how long taking it took, from the request to the commit
 * @param attempts PREPARE rounds it needed (1 when no data server was busy)
 * @param missingServers data servers that were down when it was taken (reads decode around them)
 * @param exclusiveBytes bytes only this snapshot holds (what deleting it frees); -1 when not asked
 *     for or a data server did not answer
 */
public record SnapshotInfo(
    String name,
    long epoch,
    Instant created,
    long tookMillis,
    int attempts,
    List<String> missingServers,
    long exclusiveBytes) {

  /** Where its files appear in the namespace. */
  public String path() {
    return "/.snapshots/" + name;
  }
}
