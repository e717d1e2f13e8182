package io.tessera.nfs.oncrpc;

/** An ONC RPC program: its number, the versions it serves and its procedures. */
public interface RpcProgram {
  int number();

  int lowVersion();

  int highVersion();

  /**
   * Answers one call by writing the procedure's result into {@code reply} (after the RPC reply
   * header, which the server writes). Runs on a worker thread: it may block.
   *
   * @throws RpcRefusal for an unknown procedure (PROC_UNAVAIL) or arguments that do not decode
   *     (GARBAGE_ARGS)
   */
  void call(RpcCall call, XdrWriter reply) throws RpcRefusal;
}
