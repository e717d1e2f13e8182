package io.tessera.common.rpc;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Failures as they come out of futures. */
public final class Failures {
  private Failures() {}

  /**
   * The failure itself, without the CompletionException/ExecutionException wrappers futures add.
   */
  public static Throwable cause(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
