package io.tessera.client.internal;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One open file as the I/O layer sees it: its id, its layout, and which of its servers hold stale
 * shards (they missed writes while down; readers decode around them until recovery).
 */
public final class FileTarget {
  private final long fileId;

  /** Replaced when recovery moved the file's units to another server (a newer generation). */
  private volatile StripeLayout layout;

  private final Set<String> stale = ConcurrentHashMap.newKeySet();

  /** The snapshot epoch this file is read at; -1 for the live file. */
  private final long snapshotEpoch;

  public FileTarget(long fileId, StripeLayout layout, Collection<String> staleServers) {
    this(fileId, layout, staleServers, -1);
  }

  /** A file as a snapshot holds it ({@code snapshotEpoch >= 0}): read-only, read at that epoch. */
  public FileTarget(
      long fileId, StripeLayout layout, Collection<String> staleServers, long snapshotEpoch) {
    this.fileId = fileId;
    this.layout = layout;
    this.stale.addAll(staleServers);
    this.snapshotEpoch = snapshotEpoch;
  }

  /** The target of an inode from the meta group (live, or under /.snapshots). */
  public static FileTarget of(InodeProto in) {
    return new FileTarget(
        in.getId(),
        StripeLayout.of(in.getLayout()),
        in.getStaleServersList(),
        in.getInSnapshot() ? in.getSnapshotEpoch() : -1);
  }

  /** Whether this is a snapshot's copy of the file, which nothing may change. */
  public boolean inSnapshot() {
    return snapshotEpoch >= 0;
  }

  /** A read request for this file: of the newest versions, or of the snapshot's. */
  ReadShardsRequestProto.Builder newRead() {
    ReadShardsRequestProto.Builder r = ReadShardsRequestProto.newBuilder();
    if (snapshotEpoch >= 0) {
      r.setAtSnapshot(true).setSnapshotEpoch(snapshotEpoch);
    }
    return r;
  }

  public long fileId() {
    return fileId;
  }

  public StripeLayout layout() {
    return layout;
  }

  /**
   * A data request planned with {@code planned} (data servers refuse one older than a move they
   * know of).
   */
  static DataRequestProto.Builder request(StripeLayout planned) {
    return DataRequestProto.newBuilder().setLayoutGeneration(planned.generation());
  }

  /**
   * Adopts the meta group's current inode of this file: its stale servers, and its layout when that
   * is a newer generation (same striping, some units on other servers).
   */
  void adopt(InodeProto inode) {
    StripeLayout next = StripeLayout.of(inode.getLayout());
    if (next.generation() > layout.generation()
        && next.stripeUnit() == layout.stripeUnit()
        && next.dataUnits() == layout.dataUnits()
        && next.parityUnits() == layout.parityUnits()) {
      layout = next;
    }
    resetStale(inode.getStaleServersList());
  }

  public boolean hasParity() {
    return layout.parityUnits() > 0;
  }

  /** Servers whose shards of this file are known to be stale. */
  public Set<String> staleServers() {
    return Set.copyOf(stale);
  }

  boolean isStale(String server) {
    return stale.contains(server);
  }

  /** Records servers as stale; returns those not known before. */
  Set<String> addStale(Collection<String> servers) {
    Set<String> added = new HashSet<>();
    for (String s : servers) {
      if (stale.add(s)) {
        added.add(s);
      }
    }
    return added;
  }

  /**
   * Servers another writer recorded as stale in the meta group (already recorded: nothing to send).
   */
  public void learnStale(Collection<String> servers) {
    stale.addAll(servers);
  }

  /**
   * Adopts the meta group's list of stale servers (recovery may have rebuilt some since they were
   * learned).
   */
  void resetStale(Collection<String> servers) {
    stale.retainAll(servers);
    stale.addAll(servers);
  }

  void forgetStale(Collection<String> servers) {
    stale.removeAll(servers);
  }

  /**
   * Whether unit {@code u} of stripe {@code s} can be used now: its server is neither down nor
   * stale.
   */
  boolean usable(ServerHealth health, long stripe, int u) {
    String server = layout.serverOf(stripe, u);
    return !stale.contains(server) && !health.isDown(server);
  }
}
