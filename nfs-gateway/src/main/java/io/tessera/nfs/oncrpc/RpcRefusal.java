package io.tessera.nfs.oncrpc;

/**
 * A call answered with an RPC-level error instead of the procedure's result (RFC 5531): the
 * procedure or version does not exist, or the arguments did not decode.
 */
public final class RpcRefusal extends Exception {
  /** accept_stat values. */
  public static final int PROG_UNAVAIL = 1;

  public static final int PROG_MISMATCH = 2;
  public static final int PROC_UNAVAIL = 3;
  public static final int GARBAGE_ARGS = 4;
  public static final int SYSTEM_ERR = 5;

  private final int acceptStat;

  public RpcRefusal(int acceptStat, String message) {
    super(message, null, false, false);
    this.acceptStat = acceptStat;
  }

  public int acceptStat() {
    return acceptStat;
  }

  public static RpcRefusal procedureUnavailable(int procedure) {
    return new RpcRefusal(PROC_UNAVAIL, "no procedure " + procedure);
  }
}
