package io.tessera.it.nfs;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.nfs.oncrpc.XdrWriter;
import java.util.function.Consumer;

/** Well-formed ONC RPC call records (RFC 5531) for the fuzzer to start from. */
final class RpcRecords {
  static final int NFS = 100003;
  static final int MOUNT = 100005;

  private RpcRecords() {}

  /** A call with AUTH_UNIX credentials of root and the given arguments. */
  static byte[] call(int xid, int program, int version, int procedure, Consumer<XdrWriter> args) {
    ByteBuf b = Unpooled.buffer();
    XdrWriter w = new XdrWriter(b);
    w.writeInt(xid).writeInt(0).writeInt(2).writeInt(program).writeInt(version).writeInt(procedure);
    ByteBuf cred = Unpooled.buffer();
    new XdrWriter(cred).writeInt(0).writeString("fuzz").writeInt(0).writeInt(0).writeInt(0);
    byte[] c = new byte[cred.readableBytes()];
    cred.readBytes(c);
    w.writeInt(1).writeOpaque(c);
    w.writeInt(0).writeInt(0);
    args.accept(w);
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    return out;
  }

  /** The record as sent on TCP: one last fragment. */
  static byte[] framed(byte[] record) {
    ByteBuf b = Unpooled.buffer().writeInt(0x80000000 | record.length).writeBytes(record);
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    return out;
  }
}
