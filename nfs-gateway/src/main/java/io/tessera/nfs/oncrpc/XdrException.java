package io.tessera.nfs.oncrpc;

/** Arguments that do not decode as the procedure's XDR types: answered with GARBAGE_ARGS. */
public final class XdrException extends Exception {
  public XdrException(String message) {
    super(message, null, false, false);
  }
}
