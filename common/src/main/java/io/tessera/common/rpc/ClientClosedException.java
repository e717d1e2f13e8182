package io.tessera.common.rpc;

import java.io.IOException;

/** A call was made on a client that was already closed. */
public final class ClientClosedException extends IOException {
  public ClientClosedException() {
    super("the client was closed");
  }
}
