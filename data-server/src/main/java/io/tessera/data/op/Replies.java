package io.tessera.data.op;

import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;

/** The replies every op shares. */
public final class Replies {
  private Replies() {}

  public static RpcReply ok() {
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).build());
  }

  /** OK to a request that released a lock, saying whether writers waited on it. */
  static RpcReply released(boolean writersWaited) {
    return RpcReply.of(
        DataResponseProto.newBuilder()
            .setStatus(StatusProto.OK)
            .setWritersWaited(writersWaited)
            .build());
  }

  public static RpcReply error(StatusProto status, String message) {
    return RpcReply.of(
        DataResponseProto.newBuilder().setStatus(status).setMessage(message).build());
  }
}
