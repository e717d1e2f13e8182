package io.tessera.client;

import io.tessera.client.internal.MetaClient;
import io.tessera.client.internal.SizeExtension;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.status.TesseraException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Grows a file's recorded size for its writers with at most one size update in flight: a write that
 * ends beyond the recorded size waits for an update that covers it, and writes that arrive while
 * one is in flight share the next (client-side group commit). A write is acknowledged only once the
 * recorded size covers it, so a reader after the acknowledgement sees every byte.
 *
 * <p>A write stamped with an epoch (it holds stripe locks granted at that epoch) needs a size
 * recorded before its locks were requested, or one recorded under that epoch: an update that names
 * the epoch is refused once a snapshot at it has been committed, and only the writes stamped with
 * it fail (to be written again); the others are sent again.
 */
final class SizeExtender implements SizeExtension {
  private record Waiter(long end, long epoch, CompletableFuture<Void> done) {}

  private final MetaClient meta;
  private final long fileId;
  private final List<Waiter> waiting = new ArrayList<>();
  private long recorded;

  /** When {@link #recorded} was learned ({@link System#nanoTime()}). */
  private long recordedAtNanos = System.nanoTime();

  private boolean inFlight;

  SizeExtender(MetaClient meta, long fileId, long recorded) {
    this.meta = meta;
    this.fileId = fileId;
    this.recorded = recorded;
  }

  synchronized long recorded() {
    return recorded;
  }

  @Override
  public CompletableFuture<Void> extendTo(long end, long epoch, long lockedSinceNanos) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    synchronized (this) {
      // a size learned after the locks were requested may postdate a snapshot the write belongs to
      if (end <= recorded && (epoch == UNSTAMPED || recordedAtNanos - lockedSinceNanos < 0)) {
        return CompletableFuture.completedFuture(null);
      }
      waiting.add(new Waiter(end, epoch, done));
    }
    sendIfIdle();
    return done;
  }

  /** Another client grew the file: the meta group records at least {@code size}. */
  synchronized void observed(long size) {
    if (size > recorded) {
      recorded = size;
      recordedAtNanos = System.nanoTime();
    }
  }

  /** After a truncate: the recorded size is exactly {@code size}. */
  synchronized void reset(long size) {
    recorded = size;
    recordedAtNanos = System.nanoTime();
  }

  private void sendIfIdle() {
    long target;
    long epoch;
    List<Waiter> sent;
    synchronized (this) {
      if (inFlight || waiting.isEmpty()) {
        return;
      }
      sent = List.copyOf(waiting);
      target = waiting.stream().mapToLong(Waiter::end).max().orElseThrow();
      epoch =
          waiting.stream()
              .mapToLong(Waiter::epoch)
              .filter(e -> e != UNSTAMPED)
              .min()
              .orElse(UNSTAMPED);
      inFlight = true;
    }
    SetAttrRequestProto.Builder update =
        SetAttrRequestProto.newBuilder()
            .setFileId(fileId)
            .setSetSize(true)
            .setSize(target)
            .setExtendOnly(true);
    if (epoch != UNSTAMPED) {
      update.setWritesEpoch(epoch);
    }
    meta.call(MetaRequestProto.newBuilder().setSetAttr(update))
        .whenComplete(
            (reply, err) -> {
              boolean passed =
                  err != null
                      && Failures.cause(err) instanceof TesseraException te
                      && te.status() == StatusProto.SNAPSHOT_PASSED;
              List<Waiter> finished = new ArrayList<>();
              synchronized (this) {
                inFlight = false;
                if (err == null && reply.getInode().getSize() >= recorded) {
                  recorded = reply.getInode().getSize();
                  recordedAtNanos = System.nanoTime();
                }
                for (Iterator<Waiter> it = waiting.iterator(); it.hasNext(); ) {
                  Waiter w = it.next();
                  // a stamped write that came while the update was in flight was not checked
                  // against its epoch
                  boolean checked = w.epoch == UNSTAMPED || sent.contains(w);
                  boolean covered = err == null && w.end <= recorded && checked;
                  // refused for the oldest epoch: writes at newer epochs (or none) are sent again
                  boolean failed =
                      err != null && (!passed || (w.epoch == epoch && sent.contains(w)));
                  if (covered || failed) {
                    finished.add(w);
                    it.remove();
                  }
                }
              }
              for (Waiter w : finished) {
                if (err != null) {
                  w.done.completeExceptionally(err);
                } else {
                  w.done.complete(null);
                }
              }
              sendIfIdle();
            });
  }
}
