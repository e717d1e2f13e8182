package io.tessera.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.rpc.Service;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A data server in memory, on loopback, speaking data.proto as far as a client's writes and reads
 * need: stripe locks (one holder per stripe), units stored whole or in part, reads of ranges. It
 * logs every request, can refuse lock requests as busy and can be stopped.
 */
final class FakeDataServer implements RpcService {
  private final String id;
  private final Map<String, byte[]> units = new HashMap<>();
  private final Set<String> corrupt = new HashSet<>();
  private final Map<Long, Long> lockedStripes = new HashMap<>(); // stripe key to operation
  private final List<DataRequestProto> requests = new ArrayList<>();
  private final AtomicInteger locksToRefuse = new AtomicInteger();
  private final String address;
  private RpcServer rpc;

  FakeDataServer(String id) throws InterruptedException {
    this.id = id;
    this.rpc =
        RpcServer.start(
            "fake-" + id,
            new InetSocketAddress("127.0.0.1", 0),
            Map.of(Service.DATA, this),
            16 << 20,
            1);
    this.address = "127.0.0.1:" + rpc.port();
  }

  String id() {
    return id;
  }

  String address() {
    return address;
  }

  /**
   * Refuses the next {@code n} lock requests as BUSY, as a server whose stripes another writer
   * holds.
   */
  void refuseLocks(int n) {
    locksToRefuse.set(n);
  }

  /** Answers reads of this unit as a shard that fails its checksum. */
  synchronized void corrupt(long fileId, long stripe, int unit) {
    corrupt.add(key(fileId, stripe, unit));
  }

  /** Stops listening: calls fail as to a crashed server. */
  synchronized void stop() {
    if (rpc != null) {
      rpc.close();
      rpc = null;
    }
  }

  synchronized List<DataRequestProto> requests() {
    return List.copyOf(requests);
  }

  synchronized List<DataRequestProto> requests(DataRequestProto.OpCase op) {
    return requests.stream().filter(r -> r.getOpCase() == op).toList();
  }

  synchronized byte[] unit(long fileId, long stripe, int unit) {
    return units.get(key(fileId, stripe, unit));
  }

  synchronized boolean holdsLocks() {
    return !lockedStripes.isEmpty();
  }

  @Override
  public synchronized CompletableFuture<RpcReply> handle(RpcCall call) {
    try {
      DataRequestProto req = DataRequestProto.parseFrom(call.header());
      requests.add(req);
      return CompletableFuture.completedFuture(
          switch (req.getOpCase()) {
            case LOCK_READ -> lockRead(req);
            case READ -> read(req.getRead().getRangesList(), DataResponseProto.newBuilder());
            case WRITE -> write(req, call.payload());
            case UNLOCK -> {
              unlock(req.getUnlock().getLock());
              yield reply(StatusProto.OK, "");
            }
            default -> reply(StatusProto.OK, "");
          });
    } catch (Exception e) {
      return CompletableFuture.completedFuture(
          reply(StatusProto.INVALID_ARGUMENT, String.valueOf(e.getMessage())));
    } finally {
      call.payload().release();
    }
  }

  private RpcReply lockRead(DataRequestProto req) {
    StripeLockProto lock = req.getLockRead().getLock();
    if (locksToRefuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return reply(StatusProto.BUSY, "stripes held by another writer");
    }
    for (long s = lock.getFirstStripe(); s < lock.getFirstStripe() + lock.getStripeCount(); s++) {
      Long holder = lockedStripes.get(stripeKey(lock.getFileId(), s));
      if (holder != null && holder != lock.getOperation()) {
        return reply(StatusProto.BUSY, "stripe " + s + " held by operation " + holder);
      }
    }
    for (long s = lock.getFirstStripe(); s < lock.getFirstStripe() + lock.getStripeCount(); s++) {
      lockedStripes.put(stripeKey(lock.getFileId(), s), lock.getOperation());
    }
    return read(req.getLockRead().getReadsList(), DataResponseProto.newBuilder().setLockEpoch(0));
  }

  private RpcReply read(List<ShardRangeProto> ranges, DataResponseProto.Builder header) {
    ReadShardsResponseProto.Builder states = ReadShardsResponseProto.newBuilder();
    CompositeByteBuf out = Unpooled.compositeBuffer();
    for (ShardRangeProto r : ranges) {
      byte[] stored = units.get(key(r.getFileId(), r.getStripe(), r.getUnit()));
      if (corrupt.contains(key(r.getFileId(), r.getStripe(), r.getUnit()))) {
        states.addStates(ShardStateProto.SHARD_CORRUPT).addStoredLengths(0);
        continue;
      }
      if (stored == null) {
        states.addStates(ShardStateProto.SHARD_ABSENT).addStoredLengths(0);
        continue;
      }
      int n = Math.max(0, Math.min(r.getLength(), stored.length - r.getOffset()));
      states.addStates(ShardStateProto.SHARD_STORED).addStoredLengths(n);
      out.addComponent(
          true, Unpooled.wrappedBuffer(stored, Math.min(r.getOffset(), stored.length), n));
    }
    return RpcReply.of(header.setStatus(StatusProto.OK).setRead(states).build(), out);
  }

  private RpcReply write(DataRequestProto req, ByteBuf payload) {
    int pos = payload.readerIndex();
    for (ShardRangeProto r : req.getWrite().getRangesList()) {
      String k = key(r.getFileId(), r.getStripe(), r.getUnit());
      byte[] old = units.getOrDefault(k, new byte[0]);
      byte[] now = Arrays.copyOf(old, Math.max(old.length, r.getOffset() + r.getLength()));
      payload.getBytes(pos, now, r.getOffset(), r.getLength());
      pos += r.getLength();
      units.put(k, now);
    }
    if (req.getWrite().hasUnlock()) {
      unlock(req.getWrite().getUnlock());
    }
    return reply(StatusProto.OK, "");
  }

  private void unlock(StripeLockProto lock) {
    for (long s = lock.getFirstStripe(); s < lock.getFirstStripe() + lock.getStripeCount(); s++) {
      lockedStripes.remove(stripeKey(lock.getFileId(), s), lock.getOperation());
    }
  }

  private static String key(long fileId, long stripe, int unit) {
    return fileId + "/" + stripe + "/" + unit;
  }

  private static long stripeKey(long fileId, long stripe) {
    return fileId * 1_000_003L + stripe;
  }

  private static RpcReply reply(StatusProto status, String message) {
    return RpcReply.of(
        DataResponseProto.newBuilder().setStatus(status).setMessage(message).build());
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return reply(StatusProto.INTERNAL, String.valueOf(cause.getMessage()));
  }
}
