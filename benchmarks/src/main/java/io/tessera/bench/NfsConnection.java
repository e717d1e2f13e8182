package io.tessera.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrReader;
import io.tessera.nfs.oncrpc.XdrWriter;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.function.Consumer;

/**
 * The few NFSv3 calls the NFS benchmark makes, one at a time over one TCP connection, as root with
 * AUTH_UNIX: a load generator, not a client (the tests use clients nobody here wrote).
 */
final class NfsConnection implements Closeable {
  private static final int NFS = 100003;
  private static final int MOUNT = 100005;
  private static final int GUARDED = 1;
  private static final int FILE_SYNC = 2;
  private static final int MAX_REPLY = 64 << 10;
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private int xid;

  NfsConnection(InetSocketAddress at) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(at, 5000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** MOUNT of {@code path}: its root handle. */
  byte[] mount(String path) throws IOException {
    XdrReader r = call(MOUNT, 1, w -> w.writeString(path));
    return handleAfterStatus(r, "MNT " + path);
  }

  /** MKDIR, or the directory's handle when it exists. */
  byte[] mkdir(byte[] dir, String name) throws IOException {
    // an existing directory is looked up first: a MKDIR in a directory the caller may not write
    // (root squashed to nobody, in /) is refused even where the name exists
    XdrReader found = call(NFS, 3, w -> w.writeOpaque(dir).writeString(name));
    try {
      if (found.readInt() == 0) {
        return found.readOpaque(64, "handle");
      }
    } catch (XdrException e) {
      throw new IOException("a malformed LOOKUP reply: " + e.getMessage());
    }
    XdrReader r = call(NFS, 9, w -> withMode(w.writeOpaque(dir).writeString(name), 0755));
    try {
      int status = r.readInt();
      if (status == 17) { // NFS3ERR_EXIST
        XdrReader l = call(NFS, 3, w -> w.writeOpaque(dir).writeString(name));
        return handleAfterStatus(l, "LOOKUP " + name);
      }
      return createdHandle(r, status, "MKDIR " + name);
    } catch (XdrException e) {
      throw new IOException("a malformed MKDIR reply: " + e.getMessage());
    }
  }

  /** CREATE (guarded, mode 0644): the new file's handle. */
  byte[] create(byte[] dir, String name) throws IOException {
    XdrReader r =
        call(
            NFS,
            8,
            w -> {
              w.writeOpaque(dir).writeString(name).writeInt(GUARDED);
              noAttributes(w);
            });
    try {
      return createdHandle(r, r.readInt(), "CREATE " + name);
    } catch (XdrException e) {
      throw new IOException("a malformed CREATE reply: " + e.getMessage());
    }
  }

  /** WRITE, FILE_SYNC: durable on return. */
  void write(byte[] file, long offset, byte[] data) throws IOException {
    XdrReader r =
        call(
            NFS,
            7,
            w ->
                w.writeOpaque(file)
                    .writeHyper(offset)
                    .writeInt(data.length)
                    .writeInt(FILE_SYNC)
                    .writeOpaque(data));
    status(r, "WRITE");
  }

  /** sattr3 that sets the mode to 0644 and nothing else. */
  private static XdrWriter noAttributes(XdrWriter w) {
    return withMode(w, 0644);
  }

  /** sattr3 with {@code mode} and nothing else set. */
  private static XdrWriter withMode(XdrWriter w, int mode) {
    return w.writeBool(true)
        .writeInt(mode)
        .writeBool(false)
        .writeBool(false)
        .writeBool(false)
        .writeInt(0)
        .writeInt(0);
  }

  private static byte[] createdHandle(XdrReader r, int status, String what) throws IOException {
    if (status == 13) { // NFS3ERR_ACCES
      throw new IOException(
          what
              + ": permission denied (NFS3ERR_ACCES). The benchmark calls as root, which the"
              + " exports squash to nobody by default: let it write --dir's parent (tessera fs"
              + " mkdir -p /bench; tessera fs chmod 1777 /bench)");
    }
    if (status != 0) {
      throw new IOException(what + ": nfsstat3 " + status);
    }
    try {
      if (!r.readBool()) {
        throw new IOException(what + ": the reply carries no handle");
      }
      return r.readOpaque(64, "handle");
    } catch (XdrException e) {
      throw new IOException(what + ": a malformed reply: " + e.getMessage());
    }
  }

  private static byte[] handleAfterStatus(XdrReader r, String what) throws IOException {
    status(r, what);
    try {
      return r.readOpaque(64, "handle");
    } catch (XdrException e) {
      throw new IOException(what + ": a malformed reply: " + e.getMessage());
    }
  }

  private static void status(XdrReader r, String what) throws IOException {
    try {
      int status = r.readInt();
      if (status != 0) {
        throw new IOException(what + ": status " + status);
      }
    } catch (XdrException e) {
      throw new IOException(what + ": a malformed reply: " + e.getMessage());
    }
  }

  /** One call and its reply's results, after the RPC reply header. */
  private XdrReader call(int program, int procedure, Consumer<XdrWriter> args) throws IOException {
    ByteBuf b = Unpooled.buffer();
    XdrWriter w = new XdrWriter(b);
    int id = ++xid;
    w.writeInt(0).writeInt(id).writeInt(0).writeInt(2).writeInt(program).writeInt(3);
    w.writeInt(procedure).writeInt(1);
    ByteBuf cred = Unpooled.buffer();
    new XdrWriter(cred).writeInt(0).writeString("bench").writeInt(0).writeInt(0).writeInt(0);
    byte[] c = new byte[cred.readableBytes()];
    cred.readBytes(c);
    w.writeOpaque(c).writeInt(0).writeInt(0);
    args.accept(w);
    b.setInt(0, 0x80000000 | (b.readableBytes() - 4));
    byte[] bytes = new byte[b.readableBytes()];
    b.readBytes(bytes);
    out.write(bytes);
    int length = in.readInt() & 0x7fffffff;
    if (length > MAX_REPLY) {
      throw new IOException(
          "a reply of " + length + " bytes, more than any this benchmark asks for");
    }
    byte[] reply = new byte[length];
    in.readFully(reply);
    XdrReader r = new XdrReader(Unpooled.wrappedBuffer(reply));
    try {
      if (r.readInt() != id || r.readInt() != 1 || r.readInt() != 0) {
        throw new IOException("the gateway refused the call or answered another");
      }
      r.readInt();
      r.readOpaque(400, "verifier");
      int accept = r.readInt();
      if (accept != 0) {
        throw new IOException("the gateway answered accept_stat " + accept);
      }
      return r;
    } catch (XdrException e) {
      throw new IOException("a malformed reply: " + e.getMessage());
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
