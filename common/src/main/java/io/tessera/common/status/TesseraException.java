package io.tessera.common.status;

import io.tessera.common.proto.StatusProto;
import java.io.IOException;

/**
 * A request failed with a status code from the protocol. The message says what happened and, where
 * there is something to do, what to do.
 */
public class TesseraException extends IOException {
  private final StatusProto status;

  public TesseraException(StatusProto status, String message) {
    super(message);
    this.status = status;
  }

  public StatusProto status() {
    return status;
  }

  /** The most specific exception for a status. */
  public static TesseraException of(StatusProto status, String message) {
    return switch (status) {
      case NOT_FOUND -> new NotFoundException(message);
      case EXISTS -> new AlreadyExistsException(message);
      default -> new TesseraException(status, message);
    };
  }

  /**
   * The status a failure answers with: its own for a TesseraException (also inside a completion
   * wrapper), else INTERNAL.
   */
  public static StatusProto statusOf(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TesseraException te) {
        return te.status();
      }
    }
    return StatusProto.INTERNAL;
  }

  /**
   * The same failure thrown again from the calling thread: same status, message and most specific
   * type, with this one (made where the answer arrived, often a network thread) as its cause, so a
   * blocking caller's stack trace shows where it called from.
   */
  public TesseraException atCaller() {
    TesseraException here = of(status, getMessage());
    here.initCause(this);
    return here;
  }

  /** True when trying again later may succeed. */
  public boolean isRetriable() {
    return status == StatusProto.UNAVAILABLE
        || status == StatusProto.BUSY
        || status == StatusProto.NOT_LEADER;
  }

  /** A path or file that does not exist. */
  public static final class NotFoundException extends TesseraException {
    public NotFoundException(String message) {
      super(StatusProto.NOT_FOUND, message);
    }
  }

  /** A path that already exists where a new one was asked for. */
  public static final class AlreadyExistsException extends TesseraException {
    public AlreadyExistsException(String message) {
      super(StatusProto.EXISTS, message);
    }
  }
}
