package io.tessera.client.internal;

import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.status.TesseraException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs file operations planned with the file's cached layout again after a data server said the
 * layout is stale (recovery moved some of the file's units to another server) or the file's access
 * token ran out: the inode (and a new token) is re-read from the meta group and the operation
 * planned anew. Also renews aging tokens in the background.
 */
public final class LayoutRefresh implements FileTarget.Renewer {
  /**
   * Re-plans before giving up; the meta group logs a move before any server refuses the old layout.
   */
  private static final int MAX_REPLANS = 8;

  private final MetaClient meta;

  public LayoutRefresh(MetaClient meta) {
    this.meta = meta;
  }

  /** Re-reads the file's inode (by id) and adopts its layout, stale servers and token. */
  public CompletableFuture<Void> refresh(FileTarget file) {
    return meta.call(MetaRequestProto.newBuilder().setGetAttr(file.lookup()))
        .thenAccept(file::adopt);
  }

  @Override
  public void renew(FileTarget file) {
    refresh(file)
        .whenComplete(
            (v, e) -> {
              if (e != null) {
                file.renewalFailed();
              }
            });
  }

  /** Runs {@code op}; when it fails with STALE_LAYOUT, refreshes the layout and runs it again. */
  public <T> CompletableFuture<T> planned(FileTarget file, Supplier<CompletableFuture<T>> op) {
    return planned(file, op, 0);
  }

  private <T> CompletableFuture<T> planned(
      FileTarget file, Supplier<CompletableFuture<T>> op, int replans) {
    long generation = file.layout().generation();
    return op.get()
        .handle(
            (v, e) -> {
              if (e == null) {
                return CompletableFuture.completedFuture(v);
              }
              Throwable cause = Failures.cause(e);
              if (cause instanceof TesseraException te
                  && te.status() == StatusProto.TOKEN_EXPIRED
                  && replans < MAX_REPLANS) {
                // a new token at once; on a cluster just started, the first key may still be on
                // its way to the data servers: the later tries wait a little longer each
                return refresh(file)
                    .thenCompose(
                        x ->
                            CompletableFuture.supplyAsync(
                                () -> null,
                                CompletableFuture.delayedExecutor(
                                    replans == 0 ? 0 : 50L << Math.min(replans, 4),
                                    TimeUnit.MILLISECONDS)))
                    .thenCompose(y -> planned(file, op, replans + 1));
              }
              if (!(cause instanceof TesseraException te)
                  || te.status() != StatusProto.STALE_LAYOUT
                  || replans >= MAX_REPLANS
                  || file.inSnapshot()) {
                return CompletableFuture.<T>failedFuture(cause);
              }
              return refresh(file)
                  .thenCompose(
                      x -> {
                        if (file.layout().generation() > generation) {
                          return planned(file, op, replans + 1);
                        }
                        // fenced before the meta group answers with the new layout: try again
                        // shortly
                        long waitMs =
                            ThreadLocalRandom.current().nextLong(20, 100L << Math.min(replans, 4));
                        return CompletableFuture.supplyAsync(
                                () -> null,
                                CompletableFuture.delayedExecutor(waitMs, TimeUnit.MILLISECONDS))
                            .thenCompose(y -> planned(file, op, replans + 1));
                      });
            })
        .thenCompose(f -> f);
  }
}
