package io.tessera.client.internal;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.LockReadRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.status.TesseraException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Truncates of files with parity, in two phases as writes are: lock the stripes the truncate cuts
 * (from the one holding the new end on) on every server of the file, then cut and release in one
 * atomic step on each. A writer or a rebuild of those stripes is thus never interleaved with the
 * cut: an unlocked truncate could land between a rebuild's copy and its check, or between a
 * writer's phases, leaving a server with units the others had cut.
 *
 * <p>Servers that are stale or down are skipped: recorded as stale in the meta group first, and
 * named to the others, which log them in their dirty-file logs as they cut (a rebuild copying
 * meanwhile sees the file changed). A refusal (another lock overlaps) releases what was granted and
 * tries again after a randomised back-off, as writers do.
 */
final class LockedTruncate {
  /**
   * Stripes one lock may cover (the data servers' bound): files longer past the cut are locked this
   * far.
   */
  private static final int MAX_STRIPES = 1 << 20;

  private final DataClient data;
  private final ParityWriter writer;

  LockedTruncate(DataClient data, ParityWriter writer) {
    this.data = data;
    this.writer = writer;
  }

  CompletableFuture<Void> run(FileTarget file, TruncateFileRequestProto.Builder cut) {
    return attempt(file, cut, System.nanoTime() + 2 * writer.lease().toNanos(), 0);
  }

  private CompletableFuture<Void> attempt(
      FileTarget file, TruncateFileRequestProto.Builder cut, long deadline, int attempt) {
    StripeLayout layout = file.layout();
    Set<String> skipped = new LinkedHashSet<>();
    List<String> lockOn = new ArrayList<>();
    for (String server : new LinkedHashSet<>(layout.servers())) {
      (file.isStale(server) || data.health().isDown(server) ? skipped : lockOn).add(server);
    }
    if (lockOn.size() < layout.dataUnits()) {
      // refused before anything is recorded: marking the skipped servers stale would leave fewer
      // than k current servers, from which the file could never be rebuilt
      return CompletableFuture.failedFuture(
          new TesseraException(
              StatusProto.UNAVAILABLE,
              "only "
                  + lockOn.size()
                  + " of the "
                  + layout.width()
                  + " servers of file "
                  + file.fileId()
                  + " are up and current; a truncate needs "
                  + layout.dataUnits()
                  + " (see tessera cluster status)"));
    }
    StripeLockProto lock = writer.locks().lock(file.fileId(), cut.getStripe(), MAX_STRIPES);
    Map<String, CompletableFuture<Throwable>> phase1 = new LinkedHashMap<>();
    return writer
        .markStale(file, skipped, true, SizeExtension.UNSTAMPED)
        .thenCompose(
            v -> {
              for (String server : lockOn) {
                phase1.put(
                    server,
                    data.callForOutcome(
                        server,
                        file.request(layout)
                            .setLockRead(LockReadRequestProto.newBuilder().setLock(lock)),
                        null));
              }
              return CompletableFuture.allOf(phase1.values().toArray(CompletableFuture[]::new));
            })
        .thenCompose(
            v -> {
              List<String> granted = new ArrayList<>();
              boolean busy = false;
              boolean down = false;
              Throwable fatal = null;
              for (Map.Entry<String, CompletableFuture<Throwable>> e : phase1.entrySet()) {
                Throwable t = e.getValue().join();
                if (t == null) {
                  granted.add(e.getKey());
                } else if (t instanceof TesseraException te && te.status() == StatusProto.BUSY) {
                  busy = true;
                } else if (t instanceof ServerDownException) {
                  down = true;
                } else {
                  fatal = t;
                }
              }
              if (fatal == null && !busy && !down) {
                return cut(file, cut.clone().setUnlock(lock), lockOn, skipped, 0);
              }
              CompletableFuture<Void> released = data.unlock(file, granted, lock);
              if (fatal != null) {
                Throwable f = fatal;
                return released.thenCompose(x -> CompletableFuture.failedFuture(f));
              }
              if (System.nanoTime() - deadline > 0 || attempt > 8 * layout.width()) {
                return released.thenCompose(
                    x ->
                        CompletableFuture.failedFuture(
                            new TesseraException(
                                StatusProto.BUSY,
                                "file "
                                    + file.fileId()
                                    + " could not be truncated: its stripes from "
                                    + cut.getStripe()
                                    + " stayed "
                                    + "locked by writers, or its servers kept failing, for "
                                    + 2 * writer.lease().toSeconds()
                                    + " s")));
              }
              if (!busy) {
                return released.thenCompose(x -> attempt(file, cut, deadline, attempt + 1));
              }
              return released.thenComposeAsync(
                  x -> attempt(file, cut, deadline, attempt + 1),
                  DataClient.afterLockRefusal(attempt));
            });
  }

  /**
   * Cuts the file on {@code on}, which log {@code skipped} as skipped (the first round also
   * releases its lock). Servers that fail meanwhile are recorded as stale and the others cut again
   * naming them too (a truncate does the same a second time).
   */
  private CompletableFuture<Void> cut(
      FileTarget file,
      TruncateFileRequestProto.Builder cut,
      List<String> on,
      Set<String> skipped,
      int round) {
    StripeLayout layout = file.layout();
    TruncateFileRequestProto.Builder around =
        cut.clone()
            .clearMissingServers()
            .addAllMissingServers(skipped)
            .setStaleMarked(!skipped.isEmpty());
    Map<String, CompletableFuture<Throwable>> calls = new LinkedHashMap<>();
    for (String server : on) {
      calls.put(
          server,
          data.callForOutcome(server, file.request(layout).setTruncate(around.clone()), null));
    }
    return CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new))
        .thenCompose(
            v -> {
              List<String> lost = new ArrayList<>();
              List<String> done = new ArrayList<>();
              for (Map.Entry<String, CompletableFuture<Throwable>> e : calls.entrySet()) {
                Throwable t = e.getValue().join();
                if (t == null) {
                  done.add(e.getKey());
                } else if (t instanceof ServerDownException) {
                  lost.add(e.getKey());
                } else {
                  return CompletableFuture.failedFuture(Failures.cause(t));
                }
              }
              if (lost.isEmpty()) {
                return CompletableFuture.completedFuture(null);
              }
              Set<String> missing = new LinkedHashSet<>(skipped);
              missing.addAll(lost);
              long left =
                  layout.servers().stream().filter(server -> !missing.contains(server)).count();
              if (left < layout.dataUnits() || round > layout.width()) {
                return CompletableFuture.failedFuture(
                    new TesseraException(
                        StatusProto.UNAVAILABLE,
                        "only "
                            + left
                            + " of the "
                            + layout.width()
                            + " units of file "
                            + file.fileId()
                            + " could be cut; "
                            + layout.dataUnits()
                            + " are needed"));
              }
              // the lock is released where the cut landed, and frees itself at lease expiry on the
              // lost servers
              return writer
                  .markStale(file, new LinkedHashSet<>(lost), true, SizeExtension.UNSTAMPED)
                  .thenCompose(x -> cut(file, cut.clone().clearUnlock(), done, missing, round + 1));
            });
  }
}
