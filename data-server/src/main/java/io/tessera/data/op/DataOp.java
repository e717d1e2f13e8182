package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.rpc.RpcReply;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One operation of data.proto: what admission needs to know about a request of its kind, and how to
 * run it against the shard store. The request handler parses, admits (layout fences, space, the
 * snapshot write gate) and maps failures to statuses; an op says only what differs.
 */
public interface DataOp {
  /**
   * How a request passes the snapshot write gate: freely, counted while it runs (it takes the epoch
   * current when it lands), or, for a phase 2 that carries its own epoch, uncounted.
   */
  enum Passage {
    FREE,
    UNLOCKED_CHANGE,
    LOCKED_CHANGE,
    STAMPED_CHANGE
  }

  /** What a request touches whose layout must be current here: a locked file (or -1) and ranges. */
  record Touches(long lockedFile, List<ShardRangeProto> ranges) {
    public static final Touches NOTHING = new Touches(-1, List.of());
  }

  /**
   * An answer that needs no admission (or whose admission is its own), or null to go through it.
   */
  default CompletableFuture<RpcReply> answerWithoutAdmission(DataRequestProto req) {
    return null;
  }

  /**
   * What the layout-fence check looks at; nothing for requests that are never refused a stale
   * layout.
   */
  default Touches touches(DataRequestProto req) {
    return Touches.NOTHING;
  }

  /**
   * Shard bytes a client's request asks to read (the payload it writes is counted by the handler).
   */
  default long readBytes(DataRequestProto req) {
    return 0;
  }

  /** Whether the request brings new data, refused when the disk is nearly full. */
  default boolean needsSpace(DataRequestProto req) {
    return false;
  }

  default Passage passage(DataRequestProto req) {
    return Passage.FREE;
  }

  /**
   * What the request waits for instead of the write gate (writes a snapshot holds still landing),
   * or null.
   */
  default CompletableFuture<Void> waitsFor(DataRequestProto req) {
    return null;
  }

  /** Runs the request on a worker thread; {@code payload} is released by the caller. */
  RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException;
}
