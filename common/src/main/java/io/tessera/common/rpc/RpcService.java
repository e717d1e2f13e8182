package io.tessera.common.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * One protocol's request handler on a server. It owns the call's payload (release it) and answers
 * with a reply of the same protocol; a failed future becomes {@link #errorReply}.
 */
public interface RpcService {
  CompletableFuture<RpcReply> handle(RpcCall call);

  /** The protocol's reply for a call that failed unexpectedly. */
  RpcReply errorReply(Throwable cause);
}
