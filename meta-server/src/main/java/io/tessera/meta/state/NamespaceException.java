package io.tessera.meta.state;

import io.tessera.common.proto.StatusProto;

/** A namespace operation refused: becomes the reply's status and message. */
public final class NamespaceException extends RuntimeException {
  private final StatusProto status;

  public NamespaceException(StatusProto status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public StatusProto status() {
    return status;
  }
}
