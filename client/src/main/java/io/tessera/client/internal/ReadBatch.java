package io.tessera.client.internal;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Ranges to read from one data server and where each range's bytes go. The reply is
 * checked against the request (every length bounded) before a byte is copied; the part of a
 * range the server has never stored reads as zeros.
 */
final class ReadBatch {
  /** Where one range's bytes land; {@code tag} says what the range serves. */
  record Target(byte[] into, int at, int length, Object tag) {}

  private final String server;
  private final List<ShardRangeProto> ranges = new ArrayList<>();
  private final List<Target> targets = new ArrayList<>();
  private long bytes;

  ReadBatch(String server) {
    this.server = server;
  }

  String server() {
    return server;
  }

  long bytes() {
    return bytes;
  }

  boolean isEmpty() {
    return ranges.isEmpty();
  }

  List<ShardRangeProto> ranges() {
    return ranges;
  }

  List<Target> targets() {
    return targets;
  }

  void add(long fileId, long stripe, int unit, int offset, int length, byte[] into, int at, Object tag) {
    ranges.add(ShardRangeProto.newBuilder().setFileId(fileId).setStripe(stripe).setUnit(unit).setOffset(offset)
        .setLength(length).build());
    targets.add(new Target(into, at, length, tag));
    bytes += length;
  }

  /**
   * Copies a reply into the targets and releases the payload.
   *
   * @return the tags of ranges whose shard failed its checksum or whose server is recovering (to be
   *     treated as missing)
   */
  List<Object> accept(DataResponseProto header, ByteBuf payload) throws TesseraException {
    try {
      ReadShardsResponseProto r = header.getRead();
      if (r.getStatesCount() != ranges.size() || r.getStoredLengthsCount() != ranges.size()) {
        throw malformed("answers " + r.getStatesCount() + " of " + ranges.size() + " ranges");
      }
      long total = 0;
      for (int i = 0; i < ranges.size(); i++) {
        int n = r.getStoredLengths(i);
        if (n < 0 || n > targets.get(i).length()) {
          throw malformed("returns " + Integer.toUnsignedString(n) + " bytes for a range of " + targets.get(i).length());
        }
        total += n;
      }
      if (total != payload.readableBytes()) {
        throw malformed("announces " + total + " bytes but sends " + payload.readableBytes());
      }
      List<Object> corrupt = new ArrayList<>();
      for (int i = 0; i < ranges.size(); i++) {
        Target t = targets.get(i);
        int n = r.getStoredLengths(i);
        payload.readBytes(t.into(), t.at(), n);
        Arrays.fill(t.into(), t.at() + n, t.at() + t.length(), (byte) 0);
        if (r.getStates(i) == ShardStateProto.SHARD_CORRUPT || r.getStates(i) == ShardStateProto.SHARD_UNAVAILABLE) {
          corrupt.add(t.tag());
        }
      }
      return corrupt;
    } finally {
      payload.release();
    }
  }

  private TesseraException malformed(String what) {
    return new TesseraException(StatusProto.INTERNAL, "data server " + server + " sent a malformed read reply: it "
        + what);
  }
}
