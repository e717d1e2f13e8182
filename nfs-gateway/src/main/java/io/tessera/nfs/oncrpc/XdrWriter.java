package io.tessera.nfs.oncrpc;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/** Writes XDR (RFC 4506) into a reply buffer. */
public final class XdrWriter {
  private static final byte[] PAD = new byte[3];
  private final ByteBuf buf;

  public XdrWriter(ByteBuf buf) {
    this.buf = buf;
  }

  public XdrWriter writeInt(int v) {
    buf.writeInt(v);
    return this;
  }

  public XdrWriter writeHyper(long v) {
    buf.writeLong(v);
    return this;
  }

  public XdrWriter writeBool(boolean v) {
    buf.writeInt(v ? 1 : 0);
    return this;
  }

  /** opaque&lt;&gt;: length, bytes, padding. */
  public XdrWriter writeOpaque(byte[] b, int off, int len) {
    buf.writeInt(len);
    buf.writeBytes(b, off, len);
    buf.writeBytes(PAD, 0, XdrReader.padded(len) - len);
    return this;
  }

  public XdrWriter writeOpaque(byte[] b) {
    return writeOpaque(b, 0, b.length);
  }

  /** opaque[n]: bytes and padding, no length. */
  public XdrWriter writeFixed(byte[] b) {
    buf.writeBytes(b);
    buf.writeBytes(PAD, 0, XdrReader.padded(b.length) - b.length);
    return this;
  }

  public XdrWriter writeString(String s) {
    return writeOpaque(s.getBytes(StandardCharsets.UTF_8));
  }

  /** Bytes written so far (reply size limits). */
  public int size() {
    return buf.writerIndex();
  }

  public ByteBuf buffer() {
    return buf;
  }
}
