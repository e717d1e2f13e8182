package io.tessera.client;

import io.tessera.client.internal.MetaClient;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Grows a file's recorded size for its writers with at most one size update in flight: a
 * write that ends beyond the recorded size waits for an update that covers it, and writes
 * that arrive while one is in flight share the next (client-side group commit). A write is
 * acknowledged only once the recorded size covers it, so a reader after the acknowledgement
 * sees every byte.
 */
final class SizeExtender {
  private record Waiter(long end, CompletableFuture<Void> done) {}

  private final MetaClient meta;
  private final long fileId;
  private final List<Waiter> waiting = new ArrayList<>();
  private long recorded;
  private boolean inFlight;

  SizeExtender(MetaClient meta, long fileId, long recorded) {
    this.meta = meta;
    this.fileId = fileId;
    this.recorded = recorded;
  }

  synchronized long recorded() {
    return recorded;
  }

  /** Completes once the recorded size is at least {@code end}. */
  CompletableFuture<Void> extendTo(long end) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    synchronized (this) {
      if (end <= recorded) {
        return CompletableFuture.completedFuture(null);
      }
      waiting.add(new Waiter(end, done));
    }
    sendIfIdle();
    return done;
  }

  /** Another client grew the file: the meta group records at least {@code size}. */
  synchronized void observed(long size) {
    recorded = Math.max(recorded, size);
  }

  /** After a truncate: the recorded size is exactly {@code size}. */
  synchronized void reset(long size) {
    recorded = size;
  }

  private void sendIfIdle() {
    long target;
    synchronized (this) {
      if (inFlight || waiting.isEmpty()) {
        return;
      }
      target = waiting.stream().mapToLong(Waiter::end).max().orElseThrow();
      inFlight = true;
    }
    meta.call(MetaRequestProto.newBuilder().setSetAttr(SetAttrRequestProto.newBuilder().setFileId(fileId)
        .setSetSize(true).setSize(target).setExtendOnly(true))).whenComplete((reply, err) -> {
          List<Waiter> finished = new ArrayList<>();
          synchronized (this) {
            inFlight = false;
            if (err == null) {
              recorded = Math.max(recorded, reply.getInode().getSize());
            }
            for (Iterator<Waiter> it = waiting.iterator(); it.hasNext(); ) {
              Waiter w = it.next();
              if (err != null || w.end <= recorded) {
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
