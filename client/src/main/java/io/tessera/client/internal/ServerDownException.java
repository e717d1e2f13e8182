package io.tessera.client.internal;

import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;

/** A data server did not answer a request nor its retry; it is now marked down. */
public final class ServerDownException extends TesseraException {
  private final String server;

  public ServerDownException(String server, String message) {
    super(StatusProto.UNAVAILABLE, message);
    this.server = server;
  }

  public String server() {
    return server;
  }
}
