package io.tessera.data.server;

import io.netty.buffer.Unpooled;
import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import java.nio.file.Path;
import java.util.Map;

/**
 * A data server on an ephemeral port whose meta group never answers (tests tell it the epoch), and
 * calls to it; without security (what these tests check is below it, and it has no meta group to
 * learn access keys from).
 */
final class AloneDataServer {
  private AloneDataServer() {}

  static DataServer start(Path dir) throws Exception {
    return DataServer.start(
        "ds-x",
        dir,
        Config.of(
            Map.of(
                DataServerConfigKeys.Server.PORT.key(),
                "0",
                DataServerConfigKeys.Server.META_ADDRESSES.key(),
                "127.0.0.1:1",
                SecurityConfigKeys.SECURITY.key(),
                "off")));
  }

  static RpcClientPool pool() {
    return new RpcClientPool("test", 1, 72 << 20, 10_000, 2000);
  }

  static DataResponseProto call(
      RpcClientPool pool, String address, DataRequestProto req, byte[] payload) throws Exception {
    Frame f =
        pool.call(
                address,
                Service.DATA,
                req.toByteArray(),
                payload == null ? null : Unpooled.wrappedBuffer(payload))
            .get();
    try {
      return DataResponseProto.parseFrom(f.header());
    } finally {
      f.release();
    }
  }

  /** Reads one unit's bytes back. */
  static byte[] read(RpcClientPool pool, String address, ShardRangeProto range) throws Exception {
    Frame reply =
        pool.call(
                address,
                Service.DATA,
                DataRequestProto.newBuilder()
                    .setRead(ReadShardsRequestProto.newBuilder().addRanges(range))
                    .build()
                    .toByteArray(),
                null)
            .get();
    try {
      byte[] got = new byte[reply.payload().readableBytes()];
      reply.payload().readBytes(got);
      return got;
    } finally {
      reply.release();
    }
  }
}
