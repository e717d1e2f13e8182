package io.tessera.common.rpc;

import java.io.IOException;

/** The peer could not be reached or the connection broke before it answered. */
public final class PeerUnreachableException extends IOException {
  private final String address;

  public PeerUnreachableException(String address, String why) {
    super("cannot reach " + address + ": " + why);
    this.address = address;
  }

  public String address() {
    return address;
  }
}
