package io.tessera.meta.recovery;

import com.google.protobuf.ByteString;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.DirtyClearRequestProto;
import io.tessera.common.proto.DirtyScanRequestProto;
import io.tessera.common.proto.DirtyScanResponseProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RecoveryStatusProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.meta.proto.LayoutMoveProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.proto.RebuildDoneProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.state.NamespaceStore;
import java.io.Closeable;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meta leader's recovery work, driven entirely by replicated state so a new leader picks it up
 * where the old one stopped:
 *
 * <ul>
 *   <li>failure detection: a data server whose last applied heartbeat is older than the timeout is
 *       logged DOWN; checked every {@code timeout / 4}, so a server is found down within {@code
 *       heartbeat interval + timeout + timeout / 4} of its last heartbeat (inside the DePFS bound
 *       {@code t_heartbeat + 2 * t_timeout});
 *   <li>rebuild: for every live server, the files stale on it (index in the namespace) are rebuilt
 *       one at a time at a bounded rate ({@link ShardRebuilder}), each on every live server it is
 *       stale on at once (the survivors are read once); a RECOVERING server first has its own
 *       dirty-file log reconciled, and is logged UP once nothing is stale on it;
 *   <li>orphan locks: stripes whose writer died between or during its phases (data servers report
 *       expired locks in heartbeats) get their parity recomputed from the data units;
 *   <li>drain: a DRAINING server's files move elsewhere ({@link ServerDrain}).
 * </ul>
 *
 * <p>Detection, rebuild, reconciliation and orphan-lock repair share one loop, one leadership check
 * and one set of paces (rate, lock share), and each round must see them in order; the work itself
 * (copies, locks, reads, parity, moves) lives in the classes it calls.
 */
public final class RecoveryCoordinator implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RecoveryCoordinator.class);
  private static final int FILES_PER_ROUND = 256;

  /** Settings of the coordinator. */
  public record Settings(
      Duration downAfter,
      long rateBytesPerSecond,
      long rateUnderLoad,
      int lockShareUnderLoad,
      Duration lockLease,
      Duration replaceAfter,
      long minFreeBytes) {}

  /**
   * Client traffic (bytes/s over all data servers) above which recovery runs at the under-load
   * rate.
   */
  static final long BUSY_CLIENT_BYTES_PER_S = 1L << 20;

  private final RecoveryLog log;
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final BooleanSupplier isLeader;
  private final Settings settings;
  private final ShardRebuilder rebuilder;
  private final DataServerCalls calls;
  private final RedundancyCheck redundancy;
  private final RateLimiter limiter;
  private final ServerDrain drain;
  private final Map<String, RebuildProgress> progress = new ConcurrentHashMap<>();
  private final AtomicLong rebuiltBytes = new AtomicLong();
  private final Set<String> reconciled = ConcurrentHashMap.newKeySet();

  /**
   * Servers whose reconcile failed this round: not taken along by other servers' rebuilds until the
   * next.
   */
  private final Set<String> reconcileFailed = ConcurrentHashMap.newKeySet();

  private final ScheduledExecutorService detector = daemon("failure-detector");
  private final ScheduledExecutorService worker = daemon("recovery");
  private volatile long leaderSinceNanos;
  private final AtomicLong orphansRepaired = new AtomicLong();

  public RecoveryCoordinator(
      Function<MetaTxnProto, CompletableFuture<MetaTxnReplyProto>> changes,
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      RpcClientPool dataPool,
      BooleanSupplier isLeader,
      Settings settings) {
    this.log = new RecoveryLog(changes);
    this.store = store;
    this.registry = registry;
    this.isLeader = isLeader;
    this.settings = settings;
    this.calls = new DataServerCalls(dataPool, registry, 30_000);
    this.redundancy = new RedundancyCheck(calls);
    this.limiter = new RateLimiter(this::rebuildRate);
    this.rebuilder =
        new ShardRebuilder(
            calls,
            new ShardRebuilder.Namespace() {
              @Override
              public InodeProto inode(long fileId) {
                return store.get().inode(fileId);
              }

              @Override
              public void rebuilt(long fileId, String server) {
                log.submit(
                    MetaTxnProto.newBuilder()
                        .setRebuildDone(
                            RebuildDoneProto.newBuilder().setFileId(fileId).setServer(server)));
              }

              @Override
              public boolean moved(long fileId, String from, String to, long generation) {
                return log.submit(
                            MetaTxnProto.newBuilder()
                                .setLayoutMove(
                                    LayoutMoveProto.newBuilder()
                                        .setFileId(fileId)
                                        .setFrom(from)
                                        .setTo(to)
                                        .setGeneration(generation)))
                        .getClient()
                        .getStatus()
                    == StatusProto.OK;
              }
            },
            this::serving,
            this::rebuildable,
            limiter,
            new LockShare(() -> clientsBusy() ? settings.lockShareUnderLoad() : 100),
            settings.lockLease().toMillis());
    this.drain =
        new ServerDrain(
            store,
            registry,
            rebuilder,
            this.log,
            isLeader,
            this::state,
            this::serving,
            settings.minFreeBytes(),
            rebuiltBytes);
  }

  /**
   * The rebuild rate now: lower while clients are busy on the data servers (their heartbeats say).
   */
  private long rebuildRate() {
    long full = settings.rateBytesPerSecond();
    long underLoad = settings.rateUnderLoad();
    if (underLoad <= 0 || (full > 0 && underLoad >= full)) {
      return full;
    }
    return clientsBusy() ? underLoad : full;
  }

  /**
   * Whether clients read or write more than {@link #BUSY_CLIENT_BYTES_PER_S} on the data servers
   * (heartbeats say). Not knowing counts as busy: a replica that has just taken over holds old load
   * figures until the servers' heartbeats find it, and would otherwise rebuild at the full rate,
   * holding every stripe lock it wants, in the seconds when the cluster is most strained.
   */
  private boolean clientsBusy() {
    OptionalLong clients = registry.clientBytesPerS();
    return clients.isEmpty() || clients.getAsLong() > BUSY_CLIENT_BYTES_PER_S;
  }

  public void start() {
    long period = Math.max(50, settings.downAfter().toMillis() / 4);
    detector.scheduleWithFixedDelay(this::detect, period, period, TimeUnit.MILLISECONDS);
    worker.scheduleWithFixedDelay(this::recoverRound, 500, 500, TimeUnit.MILLISECONDS);
  }

  /**
   * Whether the server answers and serves: heard from lately and not DOWN in the replicated state.
   */
  private boolean serving(String server) {
    return registry.isUp(server) && state(server) != DataServerStateProto.DOWN;
  }

  /**
   * Whether a recovery round would rebuild the server's stale units now: it is heard from and
   * neither DOWN nor leaving. A RECOVERING server has its own dirty-file log reconciled first
   * (here, when a rebuild for another server finds it back before the round gets to it).
   */
  private boolean rebuildable(String server) {
    DataServerStateProto state = state(server);
    if (!registry.isUp(server)
        || state != DataServerStateProto.UP && state != DataServerStateProto.RECOVERING) {
      return false;
    }
    if (state == DataServerStateProto.RECOVERING) {
      if (reconcileFailed.contains(server)) {
        return false; // one attempt a round: each file of another server's would wait for it again
      }
      try {
        ensureReconciled(server);
      } catch (RecoveryException e) {
        reconcileFailed.add(server); // said by reconcile; the next round tries again
        return false;
      }
    }
    return true;
  }

  /**
   * A RECOVERING server's own dirty-file log is reconciled once per leadership before its rebuilds.
   */
  private void ensureReconciled(String server) {
    if (!reconciled.contains(server)) {
      reconcile(server);
      reconciled.add(server);
    }
  }

  private DataServerStateProto state(String server) {
    ServerStateRecordProto r = store.get().serverStates().get(server);
    return r == null ? DataServerStateProto.UP : r.getState();
  }

  private boolean leading() {
    if (!isLeader.getAsBoolean()) {
      leaderSinceNanos = 0;
      reconciled.clear();
      return false;
    }
    if (leaderSinceNanos == 0) {
      leaderSinceNanos = System.nanoTime();
    }
    return true;
  }

  /** Logs DOWN for every registered server silent past the timeout. */
  private void detect() {
    try {
      // a new leader's view of heartbeats is only complete once a whole timeout has passed
      if (!leading() || System.nanoTime() - leaderSinceNanos < settings.downAfter().toNanos()) {
        return;
      }
      NamespaceStore ns = store.get();
      Map<String, ServerStateRecordProto> states = ns.serverStates();
      for (Map.Entry<String, HeartbeatRequestProto> e : ns.registeredServers().entrySet()) {
        String id = e.getKey();
        ServerStateRecordProto r = states.get(id);
        if (r != null
            && r.getState() == DataServerStateProto.DOWN
            && !registry.isUp(id)
            && System.currentTimeMillis() - r.getSinceMs() > settings.replaceAfter().toMillis()) {
          log.serverState(id, DataServerStateProto.DRAINING, registry.silentMillis(id));
          continue;
        }
        if (registry.isUp(id)
            || (r != null
                && r.getState() != DataServerStateProto.UP
                && r.getState() != DataServerStateProto.RECOVERING)) {
          continue;
        }
        log.serverState(id, DataServerStateProto.DOWN, registry.silentMillis(id));
      }
    } catch (RuntimeException e) {
      LOG.warn("Failure detection round failed: {}", e.getMessage());
    }
  }

  /** Rebuilds what is stale on live servers; moves RECOVERING servers with nothing left to UP. */
  private void recoverRound() {
    try {
      if (!leading()) {
        return;
      }
      repairOrphanLocks();
      reconcileFailed.clear();
      NamespaceStore ns = store.get();
      Map<String, Long> stale = ns.staleCounts();
      Map<String, Long> leftovers = ns.leftoverCounts();
      for (String server : ns.registeredServers().keySet()) {
        DataServerStateProto state = state(server);
        if (state == DataServerStateProto.DRAINING) {
          drain.drain(server, FILES_PER_ROUND);
          continue;
        }
        if (state == DataServerStateProto.DOWN || !registry.isUp(server)) {
          continue;
        }
        if (leftovers.getOrDefault(server, 0L) > 0) {
          drain.dropLeftovers(server, FILES_PER_ROUND);
        }
        if (state == DataServerStateProto.RECOVERING) {
          ensureReconciled(server);
        }
        if (stale.getOrDefault(server, 0L) > 0) {
          rebuildStaleFiles(server);
        }
        if (state == DataServerStateProto.RECOVERING && ns.staleFiles(server, 1).isEmpty()) {
          log.serverState(server, DataServerStateProto.UP);
          reconciled.remove(server);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("Recovery round failed: {}", e.getMessage());
    } catch (Throwable e) {
      // a scheduled task that throws is never run again: recovery must not stop silently
      LOG.error("Recovery round failed unexpectedly", e);
    }
  }

  /**
   * Stripes whose writers died holding their locks (servers report them): parity recomputed, locks
   * freed.
   */
  private void repairOrphanLocks() throws InterruptedException {
    Set<String> done = new HashSet<>();
    for (HeartbeatRequestProto hb : registry.live()) {
      for (StripeLockProto o : hb.getOrphanLocksList()) {
        String key = o.getFileId() + "/" + o.getFirstStripe() + "/" + o.getStripeCount();
        if (!done.add(key)) {
          continue;
        }
        try {
          long bytes =
              rebuilder.repairParity(
                  o.getFileId(), o.getFirstStripe(), o.getStripeCount(), hb.getServerId());
          orphansRepaired.incrementAndGet();
          LOG.info(
              "Repaired stripes {}-{} of file {} left locked by a writer that died ({} parity bytes rewritten)",
              o.getFirstStripe(),
              o.getFirstStripe() + o.getStripeCount() - 1,
              o.getFileId(),
              bytes);
        } catch (RecoveryException e) {
          LOG.warn(
              "Cannot repair stripes {}-{} of file {} yet: {}",
              o.getFirstStripe(),
              o.getFirstStripe() + o.getStripeCount() - 1,
              o.getFileId(),
              e.getMessage());
        }
      }
    }
  }

  private void rebuildStaleFiles(String server) throws InterruptedException {
    RebuildProgress p = progress.computeIfAbsent(server, s -> new RebuildProgress());
    List<Long> files = store.get().staleFiles(server, FILES_PER_ROUND);
    if (files.isEmpty()) {
      return; // rebuilt since the round began, with another server's files
    }
    long started = System.nanoTime();
    long bytesBefore = p.bytesDone();
    for (long fileId : files) {
      if (!isLeader.getAsBoolean() || !registry.isUp(server)) {
        return;
      }
      try {
        long fileStarted = System.nanoTime();
        p.starting(fileStarted);
        // the server's pass counts even when it wrote nothing; servers rebuilt in the same pass
        // (the file was stale there too) count their own bytes
        Map<String, Long> written = new LinkedHashMap<>(Map.of(server, 0L));
        Map<String, Long> copied = rebuilder.rebuild(fileId, server);
        written.putAll(copied);
        written.forEach(
            (rebuilt, bytes) -> {
              RebuildProgress q = progress.computeIfAbsent(rebuilt, x -> new RebuildProgress());
              q.starting(fileStarted);
              q.done(bytes);
              rebuiltBytes.addAndGet(bytes);
            });
        if (!copied.isEmpty()) {
          checkRebuilt(fileId);
        }
      } catch (RecoveryException e) {
        if (p.failed(e.getMessage())) {
          LOG.warn(
              "Rebuild of file {} on {} failed, will retry: {}", fileId, server, e.getMessage());
        }
      }
    }
    if (store.get().staleFiles(server, 1).isEmpty()) {
      double secs = (System.nanoTime() - started) / 1e9;
      long bytes = p.bytesDone() - bytesBefore;
      LOG.info(
          "Data server {}: every stale file rebuilt ({} files, {} MiB in {} s, {} MB/s)",
          server,
          files.size(),
          String.format(Locale.ROOT, "%.1f", bytes / 1048576.0),
          String.format(Locale.ROOT, "%.2f", secs),
          String.format(Locale.ROOT, "%.1f", secs > 0 ? bytes / 1e6 / secs : 0));
    }
  }

  /**
   * Checks a rebuilt file as fsck would ({@link RedundancyCheck}): stripes whose data stands beside
   * a parity hole get their parity recomputed, so recovery never calls a file redundant that fsck
   * finds degraded. A check that cannot be made now is left to fsck and the scrubber.
   */
  private void checkRebuilt(long fileId) throws InterruptedException {
    InodeProto in = store.get().inode(fileId);
    if (in == null || !in.getStaleServersList().isEmpty()) {
      return; // removed, or still stale somewhere: checked once rebuilt everywhere
    }
    try {
      List<Long> lacking = redundancy.stripesLackingParity(in, this::serving);
      if (!lacking.isEmpty()) {
        long bytes = repairParity(fileId, lacking);
        LOG.warn(
            "File {}: {} stripe(s) held data beside parity holes after its rebuild; their parity was"
                + " recomputed ({} bytes)",
            fileId,
            lacking.size(),
            bytes);
      }
    } catch (RecoveryException e) {
      LOG.info("File {} was rebuilt but could not be checked yet: {}", fileId, e.getMessage());
    }
  }

  /** Recomputes the parity of these stripes (sorted, distinct), runs of adjacent ones together. */
  private long repairParity(long fileId, List<Long> sorted) throws InterruptedException {
    long bytes = 0;
    for (int i = 0; i < sorted.size(); ) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1 && j - i < 63) {
        j++;
      }
      bytes += rebuilder.repairParity(fileId, sorted.get(i), j - i + 1, null);
      i = j + 1;
    }
    return bytes;
  }

  /**
   * A server that was down may hold dirty-file entries the rebuilds it missed would have cleared:
   * entries for files no longer stale on the server they name are dropped (it serves no client yet,
   * so none is being added).
   */
  private void reconcile(String server) {
    try {
      DirtyScanResponseProto d =
          calls
              .callHeader(
                  server,
                  DataRequestProto.newBuilder()
                      .setDirtyScan(DirtyScanRequestProto.getDefaultInstance()),
                  null)
              .getDirty();
      int dropped = 0;
      for (int i = 0; i < d.getFileIdsCount(); i++) {
        InodeProto in = store.get().inode(d.getFileIds(i));
        if (in == null || !in.getStaleServersList().contains(d.getServers(i))) {
          calls.callHeader(
              server,
              DataRequestProto.newBuilder()
                  .setDirtyClear(
                      DirtyClearRequestProto.newBuilder()
                          .setServer(d.getServers(i))
                          .addFileIds(d.getFileIds(i))
                          .addSequences(d.getSequences(i))),
              null);
          dropped++;
        }
      }
      if (dropped > 0) {
        LOG.info(
            "Data server {}: dropped {} dirty-file entries for files rebuilt while it was away",
            server,
            dropped);
      }
    } catch (RecoveryException e) {
      LOG.warn("Cannot reconcile the dirty-file log of {}: {}", server, e.getMessage());
      throw e;
    }
  }

  /**
   * fsck --repair: recomputes the parity of these stripes from their data units (on the recovery
   * thread, between rebuilds). Runs of adjacent stripes are repaired together.
   */
  public CompletableFuture<MetaResponseProto> repairStripes(long fileId, List<Long> stripes) {
    if (stripes.size() > 4096) {
      return CompletableFuture.completedFuture(
          reply(
              StatusProto.INVALID_ARGUMENT,
              "at most 4096 stripes per repair; got " + stripes.size()));
    }
    CompletableFuture<MetaResponseProto> out = new CompletableFuture<>();
    worker.execute(
        () -> {
          try {
            List<Long> sorted = stripes.stream().distinct().sorted().toList();
            long bytes = repairParity(fileId, sorted);
            LOG.info(
                "Repaired the parity of {} stripe(s) of file {} for fsck ({} bytes rewritten)",
                sorted.size(),
                fileId,
                bytes);
            out.complete(reply(StatusProto.OK, ""));
          } catch (RecoveryException e) {
            out.complete(reply(e.status(), e.getMessage()));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.complete(reply(StatusProto.UNAVAILABLE, "the meta leader is stopping"));
          }
        });
    return out;
  }

  private static MetaResponseProto reply(StatusProto status, String message) {
    return MetaResponseProto.newBuilder().setStatus(status).setMessage(message).build();
  }

  /** Unit bytes rebuilt or moved by this replica while it led, since it started (for metrics). */
  public long rebuiltBytes() {
    return rebuiltBytes.get();
  }

  /** What the coordinator is doing, for `tessera recover status` and `cluster status`. */
  public RecoveryStatusProto status() {
    RecoveryStatusProto.Builder b =
        RecoveryStatusProto.newBuilder()
            .setRateLimitBytesPerS(limiter.bytesPerSecond())
            .setOrphanLocksRepaired(orphansRepaired.get());
    if (!isLeader.getAsBoolean()) {
      return b.build();
    }
    NamespaceStore ns = store.get();
    b.setFilesWithoutParity(ns.withoutParityCount(1_000_000));
    Map<String, Long> stale = ns.staleCounts();
    Set<String> servers = new HashSet<>(stale.keySet());
    servers.addAll(progress.keySet());
    for (String server : new TreeSet<>(servers)) {
      long left = RebuildProgress.unitBytesOf(ns, ns.staleFiles(server, 100_000));
      RebuildProgress p = progress.getOrDefault(server, new RebuildProgress());
      b.addRebuilds(p.describe(server, stale.getOrDefault(server, 0L), left));
    }
    drain.describe(ns, b);
    return b.build();
  }

  /**
   * The client id this coordinator's stripe locks carry (data servers learn it with each
   * heartbeat).
   */
  public ByteString clientId() {
    return calls.caller().getClientId();
  }

  @Override
  public void close() {
    detector.shutdownNow();
    worker.shutdownNow();
  }

  private static ScheduledExecutorService daemon(String name) {
    return DaemonTimer.named(name);
  }
}
