package io.tessera.client.admin;

import java.util.List;
import java.util.TreeSet;

/**
 * What {@code fsck} found in one file.
 *
 * @param path the file
 * @param layout e.g. "RS 4+2, unit 1 MiB"
 * @param stripes stripes the file's size covers, all examined
 * @param parityVerified stripes whose parity was recomputed and compared (only with verification,
 *     only where more than k units could be read: a degraded stripe's remaining units are checked
 *     against what k of them decode to)
 * @param parityMismatches stripes whose parity does not match their data
 * @param missingShards units that could not be used: server down or stale, shard corrupt, or parity
 *     absent beside stored data
 * @param unreadableStripes stripes with fewer than k usable units: their data is lost until a
 *     server returns
 * @param staleServers servers recorded as having missed writes to this file
 * @param damagedServers reachable servers holding a corrupt shard of it (repair: recovery rewrites
 *     their shards of the file)
 * @param mismatchedStripes stripes whose parity does not match their data (the first 4096; repair:
 *     their parity is recomputed from the data units)
 * @param unprotectedStripes stripes whose data is stored beside a parity unit that is a hole (the
 *     first 4096; repair: their parity is recomputed from the data units)
 * @param fileId the file's inode number
 * @param redundantByLayout whether the layout has parity; a file without is never redundant,
 *     however healthy its shards
 * @param parts a log file's logs, each checked as a striped file (the counts above are their sums;
 *     a repair repairs them); empty for a striped file
 */
public record FileCheck(
    String path,
    String layout,
    long stripes,
    long parityVerified,
    long parityMismatches,
    long missingShards,
    long unreadableStripes,
    List<String> staleServers,
    List<String> damagedServers,
    List<Long> mismatchedStripes,
    List<Long> unprotectedStripes,
    long fileId,
    boolean redundantByLayout,
    List<FileCheck> parts) {

  /** A striped file's check. */
  public FileCheck(
      String path,
      String layout,
      long stripes,
      long parityVerified,
      long parityMismatches,
      long missingShards,
      long unreadableStripes,
      List<String> staleServers,
      List<String> damagedServers,
      List<Long> mismatchedStripes,
      List<Long> unprotectedStripes,
      long fileId,
      boolean redundantByLayout) {
    this(
        path,
        layout,
        stripes,
        parityVerified,
        parityMismatches,
        missingShards,
        unreadableStripes,
        staleServers,
        damagedServers,
        mismatchedStripes,
        unprotectedStripes,
        fileId,
        redundantByLayout,
        List.of());
  }

  /** A log file's check: its logs' checks summed. */
  static FileCheck ofLogs(
      String path, String layout, long fileId, boolean redundant, List<FileCheck> parts) {
    java.util.Set<String> stale = new TreeSet<>();
    java.util.Set<String> damaged = new TreeSet<>();
    parts.forEach(
        c -> {
          stale.addAll(c.staleServers());
          damaged.addAll(c.damagedServers());
        });
    return new FileCheck(
        path,
        layout,
        parts.stream().mapToLong(FileCheck::stripes).sum(),
        parts.stream().mapToLong(FileCheck::parityVerified).sum(),
        parts.stream().mapToLong(FileCheck::parityMismatches).sum(),
        parts.stream().mapToLong(FileCheck::missingShards).sum(),
        parts.stream().mapToLong(FileCheck::unreadableStripes).sum(),
        List.copyOf(stale),
        List.copyOf(damaged),
        List.of(),
        List.of(),
        fileId,
        redundant,
        List.copyOf(parts));
  }

  /**
   * Whether {@code fsck --repair} has something to do: shards to rewrite or parity to recompute.
   */
  public boolean repairable() {
    return parts.stream().anyMatch(FileCheck::repairable)
        || !damagedServers.isEmpty()
        || !mismatchedStripes.isEmpty()
        || !unprotectedStripes.isEmpty();
  }

  /** Stripes whose parity a repair recomputes: mismatched or unprotected, in order, each once. */
  public List<Long> stripesToRecompute() {
    TreeSet<Long> all = new TreeSet<>(mismatchedStripes);
    all.addAll(unprotectedStripes);
    return List.copyOf(all);
  }

  /** Whether nothing is wrong. */
  public boolean healthy() {
    return parityMismatches == 0 && missingShards == 0 && unreadableStripes == 0;
  }

  /**
   * HEALTHY, DEGRADED (readable, redundancy reduced) or DAMAGED (mismatching parity or unreadable
   * stripes).
   */
  public String verdict() {
    if (parityMismatches > 0 || unreadableStripes > 0) {
      return "DAMAGED";
    }
    return missingShards > 0 ? "DEGRADED" : "HEALTHY";
  }
}
