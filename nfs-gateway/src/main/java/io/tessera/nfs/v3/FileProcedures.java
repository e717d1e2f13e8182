package io.tessera.nfs.v3;

import io.tessera.client.AttributeChange;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrReader;
import io.tessera.nfs.oncrpc.XdrWriter;
import java.time.Instant;

/** GETATTR, SETATTR, ACCESS, READLINK, READ, WRITE and COMMIT: one file's attributes and bytes. */
final class FileProcedures {
  /** Most bytes one READ or WRITE moves (FSINFO's rtmax and wtmax). */
  static final int MAX_IO = 1 << 20;

  private final Services s;

  FileProcedures(Services s) {
    this.s = s;
  }

  void getattr(RpcCall call, XdrWriter out) throws XdrException {
    byte[] h = Services.readHandle(call.args());
    try {
      Services.Target t = s.unchangedTarget(call, h);
      out.writeInt(Nfs3.OK);
      Attributes.fattr(out, t.node(), s.files().size(t.node()));
    } catch (NfsError e) {
      out.writeInt(e.status());
    }
  }

  void setattr(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    byte[] h = Services.readHandle(in);
    Attributes.Change change = Attributes.Change.read(in);
    Instant guard = in.readBool() ? Attributes.readTime(in) : null;
    Services.Target t = null;
    try {
      t = s.target(call, h);
      Node n = t.node();
      t.requireChangeable();
      if (guard != null && !guard.equals(n.status().changed())) {
        throw new NfsError(Nfs3.ERR_NOT_SYNC, "ctime guard does not match");
      }
      checkChange(t, change);
      if (change.size() != null) {
        if (n.directory()) {
          throw new NfsError(Nfs3.ERR_ISDIR, n.path() + " is a directory");
        }
        s.files().truncate(n, change.size());
      }
      if (change.changesAttributes()) {
        Services.await(
            s.fs(t.caller())
                .changeAttributes(
                    null,
                    n.handle().fileId(),
                    new AttributeChange(
                        change.mode(), change.uid(), change.gid(), change.modified())));
      }
      out.writeInt(Nfs3.OK);
      Node after = s.refreshed(t);
      Attributes.wcc(out, after, after == null ? 0 : s.files().size(after));
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.wcc(out, t == null ? null : t.node(), 0);
    }
  }

  /** chown is root's; chgrp the owner's to a group it is in; chmod and utimes the owner's. */
  private static void checkChange(Services.Target t, Attributes.Change c) throws NfsError {
    var who = t.caller().who();
    Node n = t.node();
    boolean owner = Access.owns(who, n);
    if (c.uid() != null && who.uid() != 0 && c.uid() != n.status().owner().uid()) {
      throw new NfsError(Nfs3.ERR_PERM, "only root may give a file away");
    }
    if (c.gid() != null && who.uid() != 0 && (!owner || !who.inGroup(c.gid()))) {
      throw new NfsError(Nfs3.ERR_PERM, "only the owner may change the group, to one of its own");
    }
    if ((c.mode() != null || c.modified() != null) && !owner) {
      throw new NfsError(Nfs3.ERR_PERM, "only the owner may change mode or times");
    }
    if (c.size() != null && !owner) {
      Access.require(who, n, Nfs3.ACCESS_MODIFY);
    }
  }

  void access(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    byte[] h = Services.readHandle(in);
    int wanted = in.readInt();
    s.answer(
        call,
        h,
        out,
        (t, o) -> {
          int allowed = Access.allowed(t.caller().who(), t.node(), wanted);
          if (!t.caller().rule().readWrite()) {
            allowed &= ~(Nfs3.ACCESS_MODIFY | Nfs3.ACCESS_EXTEND | Nfs3.ACCESS_DELETE);
          }
          o.writeInt(allowed);
        });
  }

  /** Tessera has no symbolic links: no file is one. */
  void readlink(RpcCall call, XdrWriter out) throws XdrException {
    s.answer(
        call,
        Services.readHandle(call.args()),
        out,
        (t, o) -> {
          throw new NfsError(Nfs3.ERR_INVAL, t.node().path() + " is not a symbolic link");
        });
  }

  void read(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    byte[] h = Services.readHandle(in);
    long offset = in.readHyper();
    int count = Math.min(in.readInt() & 0x7fffffff, MAX_IO);
    Node n = null;
    try {
      Services.Target t = s.target(call, h);
      n = t.node();
      if (n.directory()) {
        throw new NfsError(Nfs3.ERR_ISDIR, n.path() + " is a directory");
      }
      if (offset < 0) {
        throw new NfsError(Nfs3.ERR_INVAL, "offset past 2^63");
      }
      if (!Access.owns(t.caller().who(), n)) {
        Access.require(t.caller().who(), n, Nfs3.ACCESS_READ);
      }
      byte[] data = s.files().read(n, offset, count);
      long size = s.files().size(n);
      out.writeInt(Nfs3.OK);
      Attributes.postOp(out, n, size);
      out.writeInt(data.length).writeBool(offset + data.length >= size).writeOpaque(data);
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.postOp(out, n, 0);
    }
  }

  void write(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    byte[] h = Services.readHandle(in);
    long offset = in.readHyper();
    int count = in.readCount(MAX_IO, "write count");
    int stable = in.readInt();
    if (stable < Nfs3.UNSTABLE || stable > Nfs3.FILE_SYNC) {
      throw new XdrException("stable_how " + stable);
    }
    byte[] data = in.readOpaque(MAX_IO, "write data");
    if (data.length < count) {
      throw new XdrException("write count " + count + " with " + data.length + " bytes of data");
    }
    Services.Target t = null;
    try {
      t = s.target(call, h);
      Node n = t.node();
      if (n.directory()) {
        throw new NfsError(Nfs3.ERR_ISDIR, n.path() + " is a directory");
      }
      t.requireChangeable();
      if (offset < 0 || offset + count < 0) {
        throw new NfsError(Nfs3.ERR_FBIG, "a write past 2^63 bytes");
      }
      if (!Access.owns(t.caller().who(), n)) {
        Access.require(t.caller().who(), n, Nfs3.ACCESS_MODIFY);
      }
      byte[] bytes = data.length == count ? data : java.util.Arrays.copyOf(data, count);
      s.files().write(n, offset, bytes, stable == Nfs3.UNSTABLE);
      s.changes().changed(n.handle().fileId());
      out.writeInt(Nfs3.OK);
      Attributes.wcc(out, n, Math.max(s.files().size(n), offset + count));
      out.writeInt(count).writeInt(stable == Nfs3.UNSTABLE ? Nfs3.UNSTABLE : Nfs3.FILE_SYNC);
      out.writeFixed(s.verifier());
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.wcc(out, t == null ? null : t.node(), 0);
    }
  }

  void commit(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    byte[] h = Services.readHandle(in);
    in.readHyper();
    in.readInt(); // offset and count: the whole file is committed
    Services.Target t = null;
    try {
      t = s.target(call, h);
      if (t.node().directory()) {
        throw new NfsError(Nfs3.ERR_ISDIR, t.node().path() + " is a directory");
      }
      s.files().commit(t.node());
      out.writeInt(Nfs3.OK);
      Node after = s.refreshed(t);
      Attributes.wcc(out, after, after == null ? 0 : after.status().size());
      out.writeFixed(s.verifier());
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.wcc(out, t == null ? null : t.node(), 0);
    }
  }
}
