package io.tessera.client;

import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Waits for futures on behalf of blocking code, turning failures into IOExceptions with a status.
 */
public final class Futures {
  private Futures() {}

  public static <T> T get(CompletableFuture<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the cluster");
    } catch (ExecutionException e) {
      throw asIo(e.getCause());
    }
  }

  /**
   * The failure as the blocking caller should see it: thrown anew on the caller's thread (its stack
   * shows the caller; the original, from the thread the answer arrived on, is its cause).
   */
  static IOException asIo(Throwable t) {
    t = Failures.cause(t);
    if (t instanceof TesseraException te) {
      return te.atCaller();
    }
    if (t.getClass() == IOException.class) {
      return new IOException(t.getMessage(), t);
    }
    if (t instanceof IOException io) {
      return io;
    }
    if (t instanceof IllegalArgumentException) {
      return new TesseraException(StatusProto.INVALID_ARGUMENT, t.getMessage());
    }
    return new IOException(String.valueOf(t.getMessage()), t);
  }
}
