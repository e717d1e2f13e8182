package io.tessera.client.region;

import io.tessera.client.internal.MetaClient;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RegionCloseProto;
import io.tessera.common.proto.RegionListProto;
import io.tessera.common.proto.RegionLockProto;
import io.tessera.common.proto.RegionOpenProto;
import io.tessera.common.proto.RegionRangeProto;
import io.tessera.common.proto.RegionRenewProto;
import io.tessera.common.proto.RegionRequestProto;
import io.tessera.common.proto.RegionResponseProto;
import io.tessera.common.proto.RegionUnlockProto;
import io.tessera.common.proto.SharingProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.region.HeldRegions;
import io.tessera.common.region.Region;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's region locks and sharing intents. A lock the client already holds at the home
 * (cached: released by the application, not yet given back) is taken and released here without a
 * round trip; the home calls cached regions back, through the answer to the renew this client
 * always keeps outstanding, when another client asks for them, and they go back as soon as no lock
 * of this client's application covers them. Everything is held under one lease: when the renews
 * stop getting through for a whole lease, the locks are lost and say so ({@link Active#valid}).
 * Thread-safe.
 */
public final class RegionLocks implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionLocks.class);

  /** How long a tryLock lets the home call back regions other clients cache but do not use. */
  static final int TRY_WAIT_MS = 1000;

  /** How long closing the file system waits for the home to hear what it gives back. */
  static final int CLOSE_WAIT_MS = 2000;

  private final MetaClient meta;
  private final AtomicLong roundTrips;
  private final boolean cache;
  private final String description;
  private final Map<Long, FileState> files = new HashMap<>();
  private Thread renewer;
  private boolean closed;

  /** Until when (System.nanoTime) the home keeps what this client holds, as far as it knows. */
  private long validUntilNanos;

  private long leaseNanos;

  /** The regions and intents of one file: held at the home, in use here, on their way back. */
  private static final class FileState {
    final HeldRegions held = new HeldRegions();
    final List<Active> active = new ArrayList<>();
    final List<Region> returning = new ArrayList<>();
    final List<Region> recalled = new ArrayList<>();
    final EnumMap<SharingProto, Integer> intents = new EnumMap<>(SharingProto.class);

    boolean idle() {
      return held.isEmpty() && active.isEmpty() && returning.isEmpty() && intents.isEmpty();
    }
  }

  /** A lock the application holds. */
  public final class Active {
    final long fileId;
    final Region region;
    private boolean released;
    private boolean lost;

    Active(long fileId, Region region) {
      this.fileId = fileId;
      this.region = region;
    }

    public Region region() {
      return region;
    }

    /** Held and not lost with the lease. */
    public boolean valid() {
      synchronized (RegionLocks.this) {
        return !released && !lost && System.nanoTime() - validUntilNanos < 0;
      }
    }

    public void release() throws IOException {
      RegionLocks.this.release(this);
    }
  }

  /** This process as holder listings name it: "node7 (pid 4242)". */
  public static String thisProcess() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        host = "localhost";
      }
    }
    return "pid " + ProcessHandle.current().pid() + " on " + host;
  }

  public RegionLocks(MetaClient meta, boolean cache, String description, AtomicLong roundTrips) {
    this.roundTrips = roundTrips;
    this.meta = meta;
    this.cache = cache;
    this.description = description;
  }

  /**
   * Locks {@code region} of the file, waiting up to {@code timeout} for other clients (and this
   * one's other locks) to release it; with {@code tryOnly}, null when it is not free within a
   * moment.
   */
  public Active lock(long fileId, Region region, Duration timeout, boolean tryOnly)
      throws IOException {
    long deadline =
        System.nanoTime()
            + (tryOnly ? Duration.ofMillis(TRY_WAIT_MS).toNanos() : timeout.toNanos());
    while (true) {
      synchronized (this) {
        ensureOpen();
        FileState f = files.computeIfAbsent(fileId, id -> new FileState());
        boolean blocked = conflictsLocally(f, region) || overlapsAny(f.returning, region);
        if (blocked) {
          if (tryOnly && conflictsLocally(f, region)) {
            return null;
          }
          if (!waitLocally(deadline)) {
            if (tryOnly) {
              return null; // still on its way back to the home
            }
            throw timedOut(fileId, region, "this client's own locks", timeout);
          }
          continue;
        }
        if (f.held.covers(region.start(), region.end(), region.exclusive()) && leaseValid()) {
          return take(f, fileId, region);
        }
      }
      long left = deadline - System.nanoTime();
      int waitMs = tryOnly ? TRY_WAIT_MS : (int) Math.max(0, Math.min(5000, left / 1_000_000));
      MetaResponseProto r = ask(fileId, lockRequest(region, waitMs, false), deadline, tryOnly);
      if (r == null) {
        if (tryOnly) {
          return null;
        }
        continue;
      }
      synchronized (this) {
        FileState f = files.computeIfAbsent(fileId, id -> new FileState());
        f.held.add(region);
        if (!conflictsLocally(f, region)) {
          return take(f, fileId, region);
        }
      }
    }
  }

  /**
   * Declares a sharing intent on the file; refused (BUSY, naming the holders) when it conflicts.
   */
  public void open(long fileId, SharingProto sharing) throws IOException {
    ensureRenewing();
    call(
        RegionRequestProto.newBuilder()
            .setFileId(fileId)
            .setOpen(RegionOpenProto.newBuilder().setSharing(sharing)));
    synchronized (this) {
      files.computeIfAbsent(fileId, id -> new FileState()).intents.merge(sharing, 1, Integer::sum);
    }
  }

  /** Ends one declared intent on the file. */
  public void close(long fileId, SharingProto sharing) throws IOException {
    synchronized (this) {
      FileState f = files.get(fileId);
      if (f == null
          || f.intents.computeIfPresent(sharing, (s, n) -> n > 1 ? n - 1 : null) != null) {
        return;
      }
      forgetIfIdle(fileId, f);
    }
    call(
        RegionRequestProto.newBuilder()
            .setFileId(fileId)
            .setClose(RegionCloseProto.newBuilder().setSharing(sharing)));
  }

  /** Who holds regions and intents of the file (at the home). */
  public CompletableFuture<RegionResponseProto> list(long fileId) {
    return meta.call(
            MetaRequestProto.newBuilder()
                .setRegion(
                    RegionRequestProto.newBuilder()
                        .setFileId(fileId)
                        .setList(RegionListProto.getDefaultInstance())))
        .thenApply(MetaResponseProto::getRegion);
  }

  void release(Active a) throws IOException {
    List<Region> giveBack = new ArrayList<>();
    synchronized (this) {
      if (a.released) {
        return;
      }
      a.released = true;
      FileState f = files.get(a.fileId);
      if (f == null) {
        return;
      }
      f.active.remove(a);
      notifyAll();
      if (!cache) {
        HeldRegions unused = new HeldRegions();
        unused.add(a.region);
        f.active.forEach(o -> unused.remove(o.region.start(), o.region.end()));
        giveBack.addAll(unused.all());
      }
      giveBack.addAll(recallsDue(f));
      startReturning(f, giveBack);
    }
    giveBack(a.fileId, giveBack);
  }

  /** The file's regions no lock of this client uses, among those called back. */
  private List<Region> recallsDue(FileState f) {
    List<Region> due = new ArrayList<>();
    f.recalled.removeIf(
        r -> {
          if (f.active.stream().anyMatch(o -> o.region.overlaps(r.start(), r.end()))) {
            return false;
          }
          due.add(r);
          return true;
        });
    return due;
  }

  private void startReturning(FileState f, List<Region> regions) {
    for (Region r : regions) {
      f.held.remove(r.start(), r.end());
      f.returning.add(r);
    }
  }

  /** Sends regions back to the home; a lock overlapping them waits until they got there. */
  private void giveBack(long fileId, List<Region> regions) {
    for (Region r : regions) {
      try {
        call(
            RegionRequestProto.newBuilder()
                .setFileId(fileId)
                .setUnlock(
                    RegionUnlockProto.newBuilder().setOffset(r.start()).setLength(r.length())));
      } catch (IOException e) {
        // the home frees it when this client's lease runs out, or never knew it (a new home)
        LOG.debug("Giving back {} of file {} failed: {}", r, fileId, e.getMessage());
      } finally {
        synchronized (this) {
          FileState f = files.get(fileId);
          if (f != null) {
            f.returning.remove(r);
            forgetIfIdle(fileId, f);
          }
          notifyAll();
        }
      }
    }
  }

  private Active take(FileState f, long fileId, Region region) {
    Active a = new Active(fileId, region);
    f.active.add(a);
    return a;
  }

  private static boolean conflictsLocally(FileState f, Region region) {
    return f.active.stream().anyMatch(a -> a.region.conflicts(region));
  }

  private static boolean overlapsAny(List<Region> regions, Region region) {
    return regions.stream().anyMatch(r -> r.overlaps(region.start(), region.end()));
  }

  private boolean waitLocally(long deadline) throws IOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      return false;
    }
    try {
      wait(Math.max(1, left / 1_000_000));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a region lock", e);
    }
  }

  /**
   * Asks the home for a lock; null when it is busy (held elsewhere, or the home takes only reclaims
   * for now) and there is time left to ask again.
   */
  private MetaResponseProto ask(
      long fileId, RegionLockProto.Builder lock, long deadline, boolean tryOnly)
      throws IOException {
    ensureRenewing();
    try {
      return call(RegionRequestProto.newBuilder().setFileId(fileId).setLock(lock));
    } catch (TesseraException e) {
      if (e.status() != StatusProto.BUSY) {
        throw e;
      }
      if (tryOnly) {
        return null;
      }
      if (deadline - System.nanoTime() <= 0) {
        throw e;
      }
      return null;
    }
  }

  private static RegionLockProto.Builder lockRequest(Region r, int waitMs, boolean reclaim) {
    return RegionLockProto.newBuilder()
        .setOffset(r.start())
        .setLength(r.length())
        .setExclusive(r.exclusive())
        .setWaitMs(waitMs)
        .setReclaim(reclaim);
  }

  private MetaResponseProto call(RegionRequestProto.Builder region) throws IOException {
    long sent = System.nanoTime();
    if (region.hasLock() || region.hasUnlock()) {
      roundTrips.incrementAndGet();
    }
    try {
      MetaResponseProto r = meta.call(MetaRequestProto.newBuilder().setRegion(region)).get();
      renewed(sent, r.getRegion().getLeaseMs());
      return r;
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof TesseraException te) {
        throw TesseraException.of(te.status(), te.getMessage());
      }
      throw new IOException(cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking the lock home", e);
    }
  }

  /** The home answered a request sent at {@code sentNanos}: what this client holds lives on. */
  private synchronized void renewed(long sentNanos, int leaseMs) {
    if (leaseMs > 0) {
      leaseNanos = Duration.ofMillis(leaseMs).toNanos();
    }
    if (leaseNanos > 0 && sentNanos + leaseNanos - validUntilNanos > 0) {
      validUntilNanos = sentNanos + leaseNanos;
    }
  }

  private boolean leaseValid() {
    return leaseNanos > 0 && System.nanoTime() - validUntilNanos < 0;
  }

  private synchronized void ensureRenewing() {
    ensureOpen();
    if (renewer == null) {
      renewer = new Thread(this::renewLoop, "tessera-region-lease");
      renewer.setDaemon(true);
      renewer.start();
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the file system is closed");
    }
  }

  /** Keeps one renew outstanding: it renews the lease and brings call-backs. */
  private void renewLoop() {
    boolean first = true;
    while (true) {
      synchronized (this) {
        if (closed) {
          return;
        }
        if (leaseNanos > 0 && !leaseValid()) {
          loseEverything();
        }
      }
      try {
        int waitMs = first ? 0 : (int) Math.min(5000, Math.max(100, leaseNanos / 4_000_000));
        RegionResponseProto r =
            call(RegionRequestProto.newBuilder()
                    .setRenew(
                        RegionRenewProto.newBuilder()
                            .setWaitMs(waitMs)
                            .setDescription(description)))
                .getRegion();
        if (r.getUnknownClient() && !first) {
          reclaim();
        }
        first = false;
        calledBack(r.getRecallsList());
      } catch (IOException | RuntimeException e) {
        if (closed) {
          return;
        }
        LOG.debug("Renewing the region lease failed: {}", e.getMessage());
        sleep(200);
      }
    }
  }

  private void calledBack(List<RegionRangeProto> recalls) {
    Map<Long, List<Region>> due = new HashMap<>();
    synchronized (this) {
      for (RegionRangeProto p : recalls) {
        FileState f = files.get(p.getFileId());
        Region r = Region.of(p);
        if (f == null || f.held.overlapping(r.start(), r.end()).isEmpty()) {
          continue;
        }
        if (!f.recalled.contains(r)) {
          f.recalled.add(r);
        }
        List<Region> now = recallsDue(f);
        startReturning(f, now);
        due.computeIfAbsent(p.getFileId(), id -> new ArrayList<>()).addAll(now);
      }
    }
    due.forEach(this::giveBack);
  }

  /** The home does not know this client (it is new): take back what this client holds. */
  private void reclaim() {
    Map<Long, List<Region>> regions = new HashMap<>();
    Map<Long, List<SharingProto>> intents = new HashMap<>();
    synchronized (this) {
      files.forEach(
          (id, f) -> {
            regions.put(id, f.held.all());
            intents.put(id, List.copyOf(f.intents.keySet()));
          });
    }
    for (Map.Entry<Long, List<Region>> e : regions.entrySet()) {
      for (Region r : e.getValue()) {
        try {
          call(
              RegionRequestProto.newBuilder()
                  .setFileId(e.getKey())
                  .setLock(lockRequest(r, 0, true)));
        } catch (IOException ex) {
          lost(e.getKey(), r, ex.getMessage());
        }
      }
      for (SharingProto s : intents.getOrDefault(e.getKey(), List.of())) {
        try {
          call(
              RegionRequestProto.newBuilder()
                  .setFileId(e.getKey())
                  .setOpen(RegionOpenProto.newBuilder().setSharing(s).setReclaim(true)));
        } catch (IOException ex) {
          LOG.warn(
              "The sharing intent on file {} could not be taken back at the new lock home: {}",
              e.getKey(),
              ex.getMessage());
        }
      }
    }
  }

  private synchronized void lost(long fileId, Region r, String why) {
    FileState f = files.get(fileId);
    if (f == null) {
      return;
    }
    f.held.remove(r.start(), r.end());
    for (Active a : f.active) {
      if (a.region.overlaps(r.start(), r.end())) {
        a.lost = true;
      }
    }
    LOG.warn("Region lock {} of file {} was lost at the new lock home: {}", r, fileId, why);
  }

  /** The lease ran out: nothing held here is held at the home any more. */
  private void loseEverything() {
    int activeLost = 0;
    for (FileState f : files.values()) {
      for (Active a : f.active) {
        a.lost = true;
        activeLost++;
      }
      f.held.remove(0, Region.TO_END);
      f.recalled.clear();
    }
    if (activeLost > 0) {
      LOG.warn(
          "Region locks lost: the lock home was unreachable for a whole lease; {} locks in use"
              + " no longer protect their regions",
          activeLost);
    }
    leaseNanos = 0;
    notifyAll();
  }

  private void forgetIfIdle(long fileId, FileState f) {
    if (f.idle() && f.recalled.isEmpty()) {
      files.remove(fileId);
    }
  }

  private static TesseraException timedOut(
      long fileId, Region region, String holders, Duration timeout) {
    return TesseraException.of(
        StatusProto.BUSY,
        region + " of file " + fileId + " stayed locked by " + holders + " for " + timeout);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Gives back every region and intent and stops renewing: best effort, all at once, waiting at
   * most {@link #CLOSE_WAIT_MS} (what the home does not hear of goes with the lease).
   */
  @Override
  public void close() {
    List<CompletableFuture<MetaResponseProto>> sent = new ArrayList<>();
    Thread r;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      r = renewer;
      if (r != null) {
        files.forEach(
            (id, f) -> {
              if (!f.held.isEmpty()) {
                sent.add(
                    send(
                        RegionRequestProto.newBuilder()
                            .setFileId(id)
                            .setUnlock(RegionUnlockProto.newBuilder().setOffset(0).setLength(0))));
              }
              for (SharingProto s : f.intents.keySet()) {
                sent.add(
                    send(
                        RegionRequestProto.newBuilder()
                            .setFileId(id)
                            .setClose(RegionCloseProto.newBuilder().setSharing(s))));
              }
            });
      }
      notifyAll();
    }
    if (r == null) {
      return;
    }
    try {
      CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
          .get(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.debug("Giving back region locks at close: {}", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    r.interrupt();
  }

  private CompletableFuture<MetaResponseProto> send(RegionRequestProto.Builder region) {
    return meta.call(MetaRequestProto.newBuilder().setRegion(region));
  }
}
