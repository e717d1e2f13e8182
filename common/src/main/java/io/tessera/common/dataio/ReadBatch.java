package io.tessera.common.dataio;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
 * Ranges to read from one data server and where each range's bytes go: copied into an array, or
 * kept in the reply's buffers. The reply is checked against the request (every length bounded)
 * before a byte is used; the part of a range the server has never stored reads as zeros. The
 * client's reads and recovery's both read through it.
 */
public final class ReadBatch {
  /** Where one range's bytes land; {@code tag} says what the range serves. */
  public record Target(byte[] into, int at, int length, Object tag) {}

  private final String server;
  private final List<ShardRangeProto> ranges = new ArrayList<>();
  private final List<Target> targets = new ArrayList<>();
  private long bytes;

  public ReadBatch(String server) {
    this.server = server;
  }

  public String server() {
    return server;
  }

  public long bytes() {
    return bytes;
  }

  public boolean isEmpty() {
    return ranges.isEmpty();
  }

  public List<ShardRangeProto> ranges() {
    return ranges;
  }

  public List<Target> targets() {
    return targets;
  }

  public void add(
      long fileId, long stripe, int unit, int offset, int length, byte[] into, int at, Object tag) {
    ranges.add(ShardRanges.of(fileId, stripe, unit, offset, length).build());
    targets.add(new Target(into, at, length, tag));
    bytes += length;
  }

  /**
   * Copies a reply into the targets and releases the payload.
   *
   * @return the tags of ranges whose shard failed its checksum or whose server is recovering (to be
   *     treated as missing)
   */
  public List<Object> accept(DataResponseProto header, ByteBuf payload) throws TesseraException {
    ReadShardsResponseProto r = copy(header.getRead(), payload);
    List<Object> corrupt = new ArrayList<>();
    for (int i = 0; i < ranges.size(); i++) {
      if (!usable(r.getStates(i))) {
        corrupt.add(targets.get(i).tag());
      }
    }
    return corrupt;
  }

  /**
   * Copies a read's answer into the targets and releases the payload.
   *
   * @return the answer, checked against the ranges asked: its states (and versions, where the
   *     server sent them) say what each range's bytes are
   */
  public ReadShardsResponseProto copy(ReadShardsResponseProto answer, ByteBuf payload)
      throws TesseraException {
    try {
      ReadShardsResponseProto r = checked(answer, payload);
      for (int i = 0; i < ranges.size(); i++) {
        Target t = targets.get(i);
        int n = r.getStoredLengths(i);
        payload.readBytes(t.into(), t.at(), n);
        Arrays.fill(t.into(), t.at() + n, t.at() + t.length(), (byte) 0);
      }
      return r;
    } finally {
      payload.release();
    }
  }

  /** Whether a range's bytes are usable: stored, or never written (zeros). */
  public static boolean usable(ShardStateProto state) {
    return state == ShardStateProto.SHARD_STORED || state == ShardStateProto.SHARD_ABSENT;
  }

  /**
   * Keeps a reply's bytes where they arrived instead of copying them: one buffer per range, each
   * exactly the range's length (zeros past what the server stored), holding its own reference to
   * the payload. Releases the payload.
   *
   * @return the buffers in range order, or null (nothing kept) when some range's shard failed its
   *     checksum or its server is recovering: such a read needs decoding
   */
  public List<ByteBuf> keep(DataResponseProto header, ByteBuf payload) throws TesseraException {
    try {
      ReadShardsResponseProto r = checked(header.getRead(), payload);
      for (int i = 0; i < ranges.size(); i++) {
        if (!usable(r.getStates(i))) {
          return null;
        }
      }
      List<ByteBuf> kept = new ArrayList<>(ranges.size());
      for (int i = 0; i < ranges.size(); i++) {
        int n = r.getStoredLengths(i);
        int zeros = targets.get(i).length() - n;
        ByteBuf stored = payload.readRetainedSlice(n);
        kept.add(
            zeros == 0
                ? stored
                : Unpooled.wrappedBuffer(stored, Unpooled.wrappedBuffer(new byte[zeros])));
      }
      return kept;
    } finally {
      payload.release();
    }
  }

  /**
   * The reply, once it answers every range with no more bytes than asked and the payload holds
   * exactly those.
   */
  private ReadShardsResponseProto checked(ReadShardsResponseProto r, ByteBuf payload)
      throws TesseraException {
    if (r.getStatesCount() != ranges.size() || r.getStoredLengthsCount() != ranges.size()) {
      throw malformed("answers " + r.getStatesCount() + " of " + ranges.size() + " ranges");
    }
    long total = 0;
    for (int i = 0; i < ranges.size(); i++) {
      int n = r.getStoredLengths(i);
      if (n < 0 || n > targets.get(i).length()) {
        throw malformed(
            "returns "
                + Integer.toUnsignedString(n)
                + " bytes for a range of "
                + targets.get(i).length());
      }
      total += n;
    }
    if (total != payload.readableBytes()) {
      throw malformed("announces " + total + " bytes but sends " + payload.readableBytes());
    }
    return r;
  }

  private TesseraException malformed(String what) {
    return new TesseraException(
        StatusProto.INTERNAL, "data server " + server + " sent a malformed read reply: it " + what);
  }
}
