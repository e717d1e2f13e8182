package io.tessera.client;

import io.netty.buffer.ByteBuf;
import io.tessera.client.internal.FileBody;
import io.tessera.client.internal.FileTarget;
import io.tessera.client.internal.SizeExtension;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A striped file's bytes: written in place on its servers, stripe by stripe, parity kept by the
 * two-phase {@code ParityWriter}; the size grows with each acknowledged write.
 */
final class StripedBody implements FileBody {
  private final FsContext ctx;
  private final FileTarget target;
  private final StripeLayout layout;

  /** Size the meta group is known to hold for this file (covers every acknowledged write). */
  private final SizeExtender size;

  StripedBody(FsContext ctx, FileTarget target, long size) {
    this.ctx = ctx;
    this.target = target;
    this.layout = target.layout();
    this.size = new SizeExtender(ctx.meta, target.fileId(), size);
  }

  StripeLayout layout() {
    return layout;
  }

  @Override
  public long size() {
    return size.recorded();
  }

  @Override
  public long stripeDataBytes() {
    return layout.stripeDataBytes();
  }

  @Override
  public CompletableFuture<Void> write(long position, byte[] buf, int off, int len) {
    return ctx.io.write(target, position, buf, off, len, false, size::extendTo);
  }

  @Override
  public CompletableFuture<Void> read(long position, byte[] buf, int off, int len) {
    return ctx.io.read(target, position, buf, off, len);
  }

  @Override
  public CompletableFuture<ByteBuf> readKept(long position, int len) {
    return ctx.io.readKept(target, position, len);
  }

  @Override
  public CompletableFuture<Void> sync() {
    return ctx.io.sync(target);
  }

  /** Acknowledged writes are visible already. */
  @Override
  public CompletableFuture<Void> publish() {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> truncate(long newSize) {
    CompletableFuture<Void> zeroed =
        target.hasParity()
            ? zeroCutPartOfLastStripe(newSize)
            : CompletableFuture.completedFuture(null);
    return zeroed
        .thenCompose(v -> ctx.io.truncate(target, newSize))
        .thenCompose(
            v ->
                ctx.meta.call(
                    MetaRequestProto.newBuilder()
                        .setSetAttr(
                            SetAttrRequestProto.newBuilder()
                                .setFileId(target.fileId())
                                .setSetSize(true)
                                .setSize(newSize))))
        .thenAccept(r -> size.reset(newSize));
  }

  /**
   * Before a file with parity is cut inside a stripe, the cut bytes of that stripe become zeros
   * through a parity write, so the parity the servers keep matches what is left.
   */
  private CompletableFuture<Void> zeroCutPartOfLastStripe(long newSize) {
    return refresh()
        .thenCompose(
            current -> {
              long stripeEnd = (layout.stripeOf(newSize) + 1) * layout.stripeDataBytes();
              long end = Math.min(current, stripeEnd);
              if (newSize % layout.stripeDataBytes() == 0 || end <= newSize) {
                return CompletableFuture.completedFuture(null);
              }
              byte[] zeros = new byte[(int) (end - newSize)];
              return ctx.io.write(
                  target, newSize, zeros, 0, zeros.length, false, SizeExtension.NONE);
            });
  }

  @Override
  public CompletableFuture<Long> refresh() {
    if (target.inSnapshot()) {
      return CompletableFuture.completedFuture(size.recorded()); // a snapshot's copy never changes
    }
    // by id: the file may have been renamed since it was opened
    return ctx.async
        .statById(target.fileId(), null)
        .thenApply(
            s -> {
              size.observed(s.size());
              target.learnStale(s.staleServers());
              return size.recorded();
            });
  }

  /** Nothing is buffered in a striped file's handle. */
  @Override
  public CompletableFuture<Void> close() {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public Set<String> staleServers() {
    return target.staleServers();
  }
}
