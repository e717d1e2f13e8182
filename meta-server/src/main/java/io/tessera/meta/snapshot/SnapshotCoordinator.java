package io.tessera.meta.snapshot;

import io.tessera.common.fault.FaultPoints;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.SnapshotGateRequestProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.proto.PendingSnapshotProto;
import io.tessera.meta.proto.SnapshotAbortProto;
import io.tessera.meta.proto.SnapshotBeginProto;
import io.tessera.meta.proto.SnapshotCommitProto;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.SnapshotCatalog;
import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes snapshots, on the meta leader, one at a time:
 *
 * <ol>
 *   <li>log BEGIN (the name is taken, the attempt is pending at the current epoch E);
 *   <li>PREPARE every live data server: each closes its write gate (no new stripe locks) and drains
 *       the writes that take its epoch when they land, answering READY, or BUSY after its drain
 *       bound; writers holding locks are not waited for, their phase 2 carries the epoch their
 *       locks were granted at;
 *   <li>all READY: log COMMIT alone in its entry (every replica checkpoints its namespace there,
 *       the epoch becomes E+1), then send COMMIT to the data servers, which reopen at E+1;
 *   <li>a BUSY or silent server: log ABORT, send ABORT, back off (randomised, growing) and try
 *       again, until the request's time runs out.
 * </ol>
 *
 * A coordinator that dies leaves at most one pending attempt: the next leader aborts it, and a data
 * server whose gate stays closed too long asks the meta group to settle it (abort unless
 * committed), so no snapshot is ever half-visible and writes resume within seconds.
 */
public final class SnapshotCoordinator implements Closeable {
  /**
   * Fault point: a pause once every data server is ready, before the commit (a leader crash there
   * cuts it).
   */
  public static final String BEFORE_COMMIT = "meta.snapshot.before-commit";

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotCoordinator.class);

  /** Logs one snapshot step (the meta server's group commit, alone in its entry). */
  public interface StepLog {
    CompletableFuture<MetaTxnReplyProto> submitAlone(MetaTxnProto txn);
  }

  /** Settings of the coordinator. */
  public record Settings(Duration drainTimeout, Duration giveUpAfter) {}

  private final StepLog log;
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final RpcClientPool dataServers;
  private final BooleanSupplier isLeader;
  private final Settings settings;
  private final ScheduledExecutorService timer = DaemonTimer.named("snapshot-coordinator");

  /** Snapshots run one after another: the tail of the queue. */
  private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);

  private volatile long currentAttempt;

  public SnapshotCoordinator(
      StepLog log,
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      RpcClientPool dataServers,
      BooleanSupplier isLeader,
      Settings settings) {
    this.log = log;
    this.store = store;
    this.registry = registry;
    this.dataServers = dataServers;
    this.isLeader = isLeader;
    this.settings = settings;
  }

  /** Aborts, once a second on the leader, any attempt a previous leader left pending. */
  public void start() {
    timer.scheduleWithFixedDelay(this::abortAbandoned, 1, 1, TimeUnit.SECONDS);
  }

  /** Takes snapshot {@code name}; completes with the reply for the client (never exceptionally). */
  public synchronized CompletableFuture<MetaResponseProto> create(
      String name, CallerProto caller, long callId) {
    try {
      SnapshotCatalog.checkName(name);
    } catch (NamespaceException e) {
      return CompletableFuture.completedFuture(error(e.status(), e.getMessage()));
    }
    long started = System.nanoTime();
    CompletableFuture<Attempted> result =
        tail.handle((v, e) -> null).thenCompose(v -> attempt(name, caller, callId, started, 1));
    // the next snapshot starts once this one's data servers have reopened (or were told to)
    tail = result.thenCompose(Attempted::reopened);
    return result.thenApply(Attempted::reply);
  }

  /** The reply for the client (as soon as the snapshot is logged), and when the gates reopened. */
  private record Attempted(MetaResponseProto reply, CompletableFuture<Void> reopened) {
    static Attempted done(MetaResponseProto reply) {
      return new Attempted(reply, CompletableFuture.completedFuture(null));
    }
  }

  /**
   * One attempt. BEGIN is logged while the data servers PREPARE (both take a round trip, so side by
   * side they cost one); the catalog refuses a BEGIN whose attempt a data server gave up on
   * meanwhile. A name already taken is refused without closing any gate.
   */
  private CompletableFuture<Attempted> attempt(
      String name, CallerProto caller, long callId, long started, int attempts) {
    long attempt = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    currentAttempt = attempt;
    MetaTxnProto begin =
        txn()
            .setSnapshotBegin(
                SnapshotBeginProto.newBuilder()
                    .setAttempt(attempt)
                    .setName(name)
                    .setCreatorClient(caller.getClientId())
                    .setCreatorCall(callId))
            .build();
    NamespaceStore view = store.get();
    if (view.snapshot(name) != null) {
      // taken already (refused), or by this very request before a leader change (its record is
      // returned)
      return log.submitAlone(begin)
          .thenApply(r -> Attempted.done(r.getClient()))
          .exceptionally(e -> Attempted.done(notLogged(name, e)));
    }
    long epoch = view.epoch();
    long[] retained = view.snapshots().stream().mapToLong(SnapshotProto::getEpoch).toArray();
    List<HeartbeatRequestProto> live = registry.live();
    CompletableFuture<MetaResponseProto> begun =
        log.submitAlone(begin).handle((r, e) -> e != null ? notLogged(name, e) : r.getClient());
    CompletableFuture<String> prepared = prepareAll(attempt, epoch, retained, live);
    return begun
        .thenCombine(
            prepared,
            (reply, busy) -> {
              if (reply.getStatus() == StatusProto.OK && reply.getSnapshot().getEpoch() != epoch) {
                busy =
                    "the epoch moved from "
                        + epoch
                        + " to "
                        + reply.getSnapshot().getEpoch()
                        + " meanwhile";
              }
              return new Begun(
                  reply,
                  reply.getStatus() == StatusProto.BUSY
                      ? "BEGIN refused: " + reply.getMessage()
                      : busy);
            })
        .thenCompose(
            b -> {
              if (b.notReady() != null) {
                return abortAndRetry(
                    attempt, live, b.notReady(), name, caller, callId, started, attempts);
              }
              if (b.reply().getStatus() != StatusProto.OK) {
                return abort(attempt, live)
                    .thenApply(v -> Attempted.done(b.reply())); // refused for good: it says why
              }
              Phases phases = new Phases(started, System.nanoTime());
              return pauseForFaultInjection(name)
                  .thenCompose(v -> commit(attempt, epoch, retained, live, phases, attempts))
                  .thenCompose(
                      committed ->
                          committed.reply().getStatus() == StatusProto.BUSY
                              ? abortAndRetry(
                                  attempt,
                                  live,
                                  committed.reply().getMessage(),
                                  name,
                                  caller,
                                  callId,
                                  started,
                                  attempts)
                              : CompletableFuture.completedFuture(committed));
            });
  }

  /** BEGIN's reply, and why the attempt cannot commit (null: every server is ready). */
  private record Begun(MetaResponseProto reply, String notReady) {}

  private static MetaResponseProto notLogged(String name, Throwable e) {
    return error(
        StatusProto.UNAVAILABLE,
        "snapshot '"
            + name
            + "' could not be logged ("
            + Failures.cause(e).getMessage()
            + "); retry");
  }

  /** Completes with null when every live server is ready, else with why not. */
  private CompletableFuture<String> prepareAll(
      long attempt, long epoch, long[] retained, List<HeartbeatRequestProto> live) {
    SnapshotGateRequestProto.Builder prepare =
        SnapshotGateRequestProto.newBuilder()
            .setStep(SnapshotGateRequestProto.Step.PREPARE)
            .setAttempt(attempt)
            .setEpoch(epoch)
            .setDrainTimeoutMs((int) settings.drainTimeout().toMillis());
    for (long e : retained) {
      prepare.addRetainedEpochs(e);
    }
    Map<String, CompletableFuture<String>> answers = new LinkedHashMap<>();
    for (HeartbeatRequestProto server : live) {
      answers.put(
          server.getServerId(),
          gate(server, prepare.build(), settings.drainTimeout().plusSeconds(2)));
    }
    return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
        .thenApply(
            v -> {
              for (Map.Entry<String, CompletableFuture<String>> e : answers.entrySet()) {
                String why = e.getValue().join();
                if (why != null) {
                  return e.getKey() + ": " + why;
                }
              }
              return null;
            });
  }

  /**
   * When the last attempt's steps ended (System.nanoTime), for the log line of a snapshot taken.
   */
  private record Phases(long started, long prepared) {
    String describe(long committed, long opened) {
      return "begin and prepare "
          + ms(started, prepared)
          + " ms, commit "
          + ms(prepared, committed)
          + " ms, reopen "
          + ms(committed, opened)
          + " ms";
    }

    private static long ms(long from, long to) {
      return TimeUnit.NANOSECONDS.toMillis(to - from);
    }
  }

  /**
   * Logs COMMIT; the client's reply is ready then (the snapshot exists), while COMMIT goes to the
   * data servers, which reopen their gates at the next epoch.
   */
  private CompletableFuture<Attempted> commit(
      long attempt,
      long epoch,
      long[] retained,
      List<HeartbeatRequestProto> live,
      Phases phases,
      int attempts) {
    long started = phases.started();
    List<String> missing =
        new ArrayList<>(registry.describe().stream().map(d -> d.getId()).toList());
    live.forEach(s -> missing.remove(s.getServerId()));
    MetaTxnProto commit =
        txn()
            .setSnapshotCommit(
                SnapshotCommitProto.newBuilder()
                    .setAttempt(attempt)
                    .addAllMissingServers(missing)
                    .setAttempts(attempts)
                    .setTookMs(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)))
            .build();
    return log.submitAlone(commit)
        .thenApply(
            r -> {
              MetaResponseProto reply = r.getClient();
              if (reply.getStatus() != StatusProto.OK) {
                return Attempted.done(reply);
              }
              long committed = System.nanoTime();
              SnapshotGateRequestProto.Builder open =
                  SnapshotGateRequestProto.newBuilder()
                      .setStep(SnapshotGateRequestProto.Step.COMMIT)
                      .setAttempt(attempt)
                      .setEpoch(epoch)
                      .setNewEpoch(epoch + 1);
              for (long e : retained) {
                open.addRetainedEpochs(e);
              }
              open.addRetainedEpochs(epoch);
              List<CompletableFuture<String>> sent = new ArrayList<>();
              for (HeartbeatRequestProto server : live) {
                sent.add(gate(server, open.build(), Duration.ofSeconds(2)));
              }
              SnapshotProto s = reply.getSnapshot();
              // a server that misses COMMIT learns the epoch from its next heartbeat
              CompletableFuture<Void> reopened =
                  CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
                      .thenRun(
                          () ->
                              LOG.info(
                                  "Snapshot '{}' taken at epoch {} in {} ms ({} attempt(s){}; last attempt: {})",
                                  s.getName(),
                                  s.getEpoch(),
                                  s.getTookMs(),
                                  attempts,
                                  missing.isEmpty() ? "" : ", without down servers " + missing,
                                  phases.describe(committed, System.nanoTime())));
              // the time recorded with the snapshot: what `snapshot list` shows of it too
              return new Attempted(reply, reopened);
            });
  }

  private CompletableFuture<Attempted> abortAndRetry(
      long attempt,
      List<HeartbeatRequestProto> live,
      String why,
      String name,
      CallerProto caller,
      long callId,
      long started,
      int attempts) {
    return abort(attempt, live)
        .thenCompose(
            v -> {
              long elapsed = System.nanoTime() - started;
              if (elapsed > settings.giveUpAfter().toNanos() || !isLeader.getAsBoolean()) {
                return CompletableFuture.completedFuture(
                    Attempted.done(
                        error(
                            StatusProto.BUSY,
                            "snapshot '"
                                + name
                                + "' was not taken: "
                                + attempts
                                + " attempt(s) in "
                                + TimeUnit.NANOSECONDS.toMillis(elapsed)
                                + " ms were refused; last: "
                                + why)));
              }
              LOG.info("Snapshot '{}' attempt {} refused ({}); retrying", name, attempts, why);
              long backoffMicros =
                  ThreadLocalRandom.current().nextLong(2_000, 10_000L << Math.min(attempts, 4));
              Executor later =
                  CompletableFuture.delayedExecutor(backoffMicros, TimeUnit.MICROSECONDS, timer);
              return CompletableFuture.supplyAsync(() -> null, later)
                  .thenCompose(x -> attempt(name, caller, callId, started, attempts + 1));
            });
  }

  private CompletableFuture<Void> abort(long attempt, List<HeartbeatRequestProto> servers) {
    CompletableFuture<MetaTxnReplyProto> logged =
        log.submitAlone(
            txn().setSnapshotAbort(SnapshotAbortProto.newBuilder().setAttempt(attempt)).build());
    SnapshotGateRequestProto abort =
        SnapshotGateRequestProto.newBuilder()
            .setStep(SnapshotGateRequestProto.Step.ABORT)
            .setAttempt(attempt)
            .build();
    List<CompletableFuture<?>> all = new ArrayList<>();
    all.add(logged.handle((r, e) -> null));
    for (HeartbeatRequestProto server : servers) {
      all.add(gate(server, abort, Duration.ofSeconds(2)));
    }
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }

  private CompletableFuture<Void> pauseForFaultInjection(String name) {
    Duration pause = FaultPoints.pauseAt(BEFORE_COMMIT);
    if (pause.isZero()) {
      return CompletableFuture.completedFuture(null);
    }
    LOG.warn(
        "Snapshot '{}': every data server is ready; pausing {} ms before the commit (fault injection)",
        name,
        pause.toMillis());
    return CompletableFuture.runAsync(
        () -> {},
        CompletableFuture.delayedExecutor(pause.toMillis(), TimeUnit.MILLISECONDS, timer));
  }

  /** Sends one gate step; completes with null on OK, else with the reason. */
  private CompletableFuture<String> gate(
      HeartbeatRequestProto server, SnapshotGateRequestProto step, Duration limit) {
    byte[] req = DataRequestProto.newBuilder().setSnapshotGate(step).build().toByteArray();
    return dataServers
        .call(server.getAddress(), Service.DATA, req, null)
        .orTimeout(limit.toMillis(), TimeUnit.MILLISECONDS)
        .handle(
            (frame, err) -> {
              if (err != null) {
                return "no answer (" + Failures.cause(err).getMessage() + ")";
              }
              try {
                DataResponseProto r = DataResponseProto.parseFrom(frame.header());
                return r.getStatus() == StatusProto.OK
                    ? null
                    : r.getStatus() + " " + r.getMessage();
              } catch (Exception e) {
                return "unreadable answer";
              } finally {
                frame.release();
              }
            });
  }

  private void abortAbandoned() {
    try {
      if (!isLeader.getAsBoolean()) {
        return;
      }
      PendingSnapshotProto pending = store.get().pendingSnapshot();
      if (pending == null || pending.getAttempt() == currentAttempt) {
        return;
      }
      LOG.warn(
          "Snapshot '{}' (attempt {}) was left half-done by a previous leader; aborting it",
          pending.getName(),
          pending.getAttempt());
      abort(pending.getAttempt(), registry.live());
    } catch (RuntimeException e) {
      LOG.warn("Checking for abandoned snapshot attempts failed: {}", e.getMessage());
    }
  }

  private static MetaTxnProto.Builder txn() {
    return MetaTxnProto.newBuilder().setTimeMs(System.currentTimeMillis());
  }

  private static MetaResponseProto error(StatusProto status, String message) {
    return MetaResponseProto.newBuilder().setStatus(status).setMessage(message).build();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
