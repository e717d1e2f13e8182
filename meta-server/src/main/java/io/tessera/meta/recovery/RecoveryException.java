package io.tessera.meta.recovery;

import io.tessera.common.proto.StatusProto;

/**
 * A recovery step that cannot be done now (a server refused or did not answer); it is retried
 * later.
 */
class RecoveryException extends RuntimeException {
  private final StatusProto status;

  RecoveryException(StatusProto status, String message) {
    super(message);
    this.status = status;
  }

  StatusProto status() {
    return status;
  }
}
