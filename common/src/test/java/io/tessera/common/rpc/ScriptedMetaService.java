package io.tessera.common.rpc;

import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.security.TransportSecurity;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/** A server whose META service answers the n-th call (1, 2, ...) as the test scripts it. */
final class ScriptedMetaService implements RpcService {
  private final IntFunction<CompletableFuture<RpcReply>> answers;
  private int calls;

  private ScriptedMetaService(IntFunction<CompletableFuture<RpcReply>> answers) {
    this.answers = answers;
  }

  /** Starts a server on a free loopback port; the caller closes it. */
  static RpcServer start(
      String name, int maxFrameBytes, IntFunction<CompletableFuture<RpcReply>> answers)
      throws InterruptedException {
    return start(name, RpcServer.Limits.of(maxFrameBytes, 1), answers);
  }

  /** Like {@link #start(String, int, IntFunction)}, within {@code limits}. */
  static RpcServer start(
      String name, RpcServer.Limits limits, IntFunction<CompletableFuture<RpcReply>> answers)
      throws InterruptedException {
    return RpcServer.start(
        name,
        new InetSocketAddress("127.0.0.1", 0),
        Map.of(Service.META, new ScriptedMetaService(answers)),
        limits,
        TransportSecurity.plaintext());
  }

  /** An empty answer, at once. */
  static CompletableFuture<RpcReply> empty() {
    return CompletableFuture.completedFuture(RpcReply.of(MetaResponseProto.getDefaultInstance()));
  }

  @Override
  public synchronized CompletableFuture<RpcReply> handle(RpcCall call) {
    call.payload().release();
    return answers.apply(++calls);
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return RpcReply.of(MetaResponseProto.getDefaultInstance());
  }
}
