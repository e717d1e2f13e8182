package io.tessera.nfs.oncrpc;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Reads XDR (RFC 4506) from a buffer holding one RPC record. Every length read is checked against
 * the caller's maximum and against the bytes left before anything is allocated.
 */
public final class XdrReader {
  private final ByteBuf buf;

  public XdrReader(ByteBuf buf) {
    this.buf = buf;
  }

  public int readInt() throws XdrException {
    need(4, "an int");
    return buf.readInt();
  }

  /** An unsigned int that must fit a Java int (counts, lengths): larger ones are refused. */
  public int readCount(int max, String what) throws XdrException {
    int n = readInt();
    if (n < 0 || n > max) {
      throw new XdrException(what + " " + Integer.toUnsignedString(n) + " is over " + max);
    }
    return n;
  }

  public long readHyper() throws XdrException {
    need(8, "a hyper");
    return buf.readLong();
  }

  public boolean readBool() throws XdrException {
    int v = readInt();
    if (v != 0 && v != 1) {
      throw new XdrException("bool " + v + " is neither 0 nor 1");
    }
    return v == 1;
  }

  /** opaque&lt;max&gt;: a length, then as many bytes and padding to 4. */
  public byte[] readOpaque(int max, String what) throws XdrException {
    int n = readCount(max, what + " length");
    byte[] out = new byte[n];
    readFixed(out);
    return out;
  }

  /** opaque[n]: exactly {@code out.length} bytes and padding to 4. */
  public void readFixed(byte[] out) throws XdrException {
    need(padded(out.length), "opaque of " + out.length + " bytes");
    buf.readBytes(out);
    buf.skipBytes(padded(out.length) - out.length);
  }

  /**
   * opaque&lt;max&gt; as a slice of the record (no copy): the caller retains it if it outlives the
   * call.
   */
  public ByteBuf readOpaqueSlice(int max, String what) throws XdrException {
    int n = readCount(max, what + " length");
    need(padded(n), what + " of " + n + " bytes");
    ByteBuf slice = buf.readSlice(n);
    buf.skipBytes(padded(n) - n);
    return slice;
  }

  public String readString(int max, String what) throws XdrException {
    return new String(readOpaque(max, what), StandardCharsets.UTF_8);
  }

  public int remaining() {
    return buf.readableBytes();
  }

  private void need(int bytes, String what) throws XdrException {
    if (buf.readableBytes() < bytes) {
      throw new XdrException(
          "the record ends after " + buf.readableBytes() + " bytes where " + what + " was due");
    }
  }

  static int padded(int n) {
    return (n + 3) & ~3;
  }
}
