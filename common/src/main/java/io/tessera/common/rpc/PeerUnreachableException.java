package io.tessera.common.rpc;

import java.io.IOException;

/** The peer could not be reached or the connection broke before it answered. */
public final class PeerUnreachableException extends IOException {
  private final String address;
  private final boolean silent;
  private final boolean unread;
  private final boolean refused;

  public PeerUnreachableException(String address, String why) {
    this(address, why, false, false);
  }

  public PeerUnreachableException(String address, String why, boolean silent) {
    this(address, why, silent, false);
  }

  /**
   * @param silent the connection was open but the peer stopped answering (worth no immediate retry)
   * @param unread the peer never read the call: it closed the connection for idleness first, or the
   *     call could not be written (worth one retry on a new connection)
   */
  private PeerUnreachableException(String address, String why, boolean silent, boolean unread) {
    this(address, why, silent, unread, false);
  }

  private PeerUnreachableException(
      String address, String why, boolean silent, boolean unread, boolean refused) {
    super("cannot reach " + address + ": " + why);
    this.address = address;
    this.silent = silent;
    this.unread = unread;
    this.refused = refused;
  }

  /**
   * The connection could not be made: {@code cause} says why; a refused one (nothing listens there)
   * is told apart.
   */
  static PeerUnreachableException notConnected(String address, Throwable cause) {
    return new PeerUnreachableException(
        address,
        cause == null ? "connect failed" : String.valueOf(cause.getMessage()),
        false,
        false,
        cause instanceof java.net.ConnectException
            && String.valueOf(cause.getMessage()).contains("refused"));
  }

  /** Whether nothing listened at the address: the connection was refused. */
  public boolean refused() {
    return refused;
  }

  /**
   * The call could not be written (the connection closed under it): the peer never read it, so it
   * may go once more on a new connection.
   */
  static PeerUnreachableException notSent(String address, Object why) {
    return new PeerUnreachableException(address, "the call was not sent: " + why, false, true);
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

  /**
   * Whether the peer never read the call: it closed an idle connection as the call went out, or the
   * call could not be written at all.
   */
  public boolean unread() {
    return unread;
  }

  public String address() {
    return address;
  }
}
