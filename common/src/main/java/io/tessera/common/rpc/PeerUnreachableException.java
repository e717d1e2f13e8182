package io.tessera.common.rpc;

import java.io.IOException;

/** The peer could not be reached or the connection broke before it answered. */
public final class PeerUnreachableException extends IOException {
  private final String address;
  private final boolean silent;
  private final boolean unread;

  public PeerUnreachableException(String address, String why) {
    this(address, why, false, false);
  }

  public PeerUnreachableException(String address, String why, boolean silent) {
    this(address, why, silent, false);
  }

  /**
   * @param silent the connection was open but the peer stopped answering (worth no immediate retry)
   * @param unread the peer closed the connection for idleness before it read the call (worth one
   *     retry on a new connection)
   */
  private PeerUnreachableException(String address, String why, boolean silent, boolean unread) {
    super("cannot reach " + address + ": " + why);
    this.address = address;
    this.silent = silent;
    this.unread = unread;
  }

  static PeerUnreachableException closedBeforeRead(String address) {
    return new PeerUnreachableException(
        address, "it closed the idle connection before reading the call", false, true);
  }

  /**
   * Whether the peer went silent on an open connection (stopped, partitioned), rather than refusing
   * it.
   */
  public boolean silent() {
    return silent;
  }

  /** Whether the peer closed an idle connection as the call went out, never having read it. */
  public boolean unread() {
    return unread;
  }

  public String address() {
    return address;
  }
}
