package io.tessera.client.internal;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.AccessTokenProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One open file as the I/O layer sees it: its id, its layout, which of its servers hold stale
 * shards (they missed writes while down; readers decode around them until recovery), and the access
 * token data servers want for it, renewed in the background once half its life is gone.
 */
public final class FileTarget {
  /** Asks the meta group for the file's inode and token again (without waiting for it). */
  public interface Renewer {
    Renewer NONE = file -> {};

    void renew(FileTarget file);
  }

  private final long fileId;

  /** The data servers' permission to touch the file's shards (null without security). */
  private volatile AccessTokenProto token;

  /** When the token in hand should be renewed (the middle of its life), ms of the local clock. */
  private volatile long renewAtMs = Long.MAX_VALUE;

  private final AtomicBoolean renewing = new AtomicBoolean();
  private volatile Renewer renewer = Renewer.NONE;

  /** How the meta group is asked for this file again: by id, under its snapshot if it has one. */
  /** The path the file was opened by; null for a target made from an inode alone. */
  private String path;

  private GetAttrRequestProto lookup;

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

  /**
   * The target of the file a meta answer opened at {@code path}, with its access token; {@code
   * renewer} renews the token as it ages.
   */
  public static FileTarget of(MetaResponseProto opened, String path, Renewer renewer) {
    FileTarget f = of(opened.getInode());
    GetAttrRequestProto.Builder lookup =
        GetAttrRequestProto.newBuilder().setFileId(opened.getInode().getId());
    if (f.inSnapshot()) {
      lookup.setPath(snapshotRoot(path));
    }
    f.lookup = lookup.build();
    f.path = path;
    f.renewer = renewer;
    f.adoptToken(opened);
    return f;
  }

  /** "/.snapshots/NAME" of a path under it. */
  private static String snapshotRoot(String path) {
    String[] parts = path.split("/", 4);
    return parts.length >= 3 ? "/" + parts[1] + "/" + parts[2] : path;
  }

  /**
   * The file as its user knows it, for messages: the path it was opened by (it may have been
   * renamed since), else "file ID".
   */
  public String describe() {
    return path != null ? path : "file " + fileId;
  }

  /** How to ask the meta group for this file again. */
  GetAttrRequestProto lookup() {
    return lookup != null ? lookup : GetAttrRequestProto.newBuilder().setFileId(fileId).build();
  }

  /** Adopts a fresh answer about this file: its inode (see {@link #adopt}) and its token. */
  void adopt(MetaResponseProto fresh) {
    adopt(fresh.getInode());
    adoptToken(fresh);
  }

  private void adoptToken(MetaResponseProto r) {
    if (!r.hasToken()) {
      return;
    }
    long now = System.currentTimeMillis();
    token = r.getToken();
    renewAtMs = now + Math.max(0, (r.getToken().getExpiresMs() - now) / 2);
    renewing.set(false);
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
   * A data request for this file planned with {@code planned} (data servers refuse one older than a
   * move they know of), with the file's access token. A token past the middle of its life is
   * renewed in the background.
   */
  DataRequestProto.Builder request(StripeLayout planned) {
    DataRequestProto.Builder b =
        DataRequestProto.newBuilder().setLayoutGeneration(planned.generation());
    AccessTokenProto t = token;
    if (t != null) {
      b.addTokens(t);
      if (System.currentTimeMillis() >= renewAtMs && renewing.compareAndSet(false, true)) {
        renewer.renew(this);
      }
    }
    return b;
  }

  /** A renewal failed: the next request asks again. */
  void renewalFailed() {
    renewing.set(false);
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
