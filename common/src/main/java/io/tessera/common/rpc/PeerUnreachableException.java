package io.tessera.common.rpc;

import java.io.IOException;

/** The peer could not be reached or the connection broke before it answered. */
public final class PeerUnreachableException extends IOException {
  private final String address;
  private final boolean silent;

  public PeerUnreachableException(String address, String why) {
    this(address, why, false);
  }

  /**
   * @param silent the connection was open but the peer stopped answering (worth no immediate retry)
   */
  public PeerUnreachableException(String address, String why, boolean silent) {
    super("cannot reach " + address + ": " + why);
    this.address = address;
    this.silent = silent;
  }

  /**
   * Whether the peer went silent on an open connection (stopped, partitioned), rather than refusing
   * it.
   */
  public boolean silent() {
    return silent;
  }

  public String address() {
    return address;
  }
}
