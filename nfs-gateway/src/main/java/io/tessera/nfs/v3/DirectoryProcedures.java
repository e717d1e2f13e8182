package io.tessera.nfs.v3;

import io.tessera.client.AttributeChange;
import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.VirtualFileSystem;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.UnixCredential;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrReader;
import io.tessera.nfs.oncrpc.XdrWriter;
import java.nio.ByteBuffer;
import java.time.Instant;

/** LOOKUP, CREATE, MKDIR, REMOVE, RMDIR, RENAME and the links Tessera does not have. */
final class DirectoryProcedures {
  private final Services s;

  DirectoryProcedures(Services s) {
    this.s = s;
  }

  /** diropargs3: a directory handle and a name. */
  private record DirOp(byte[] dir, String name) {
    static DirOp read(XdrReader in) throws XdrException {
      return new DirOp(Services.readHandle(in), in.readString(Nfs3.MAX_PATH, "file name"));
    }
  }

  void lookup(RpcCall call, XdrWriter out) throws XdrException {
    DirOp op = DirOp.read(call.args());
    Node dir = null;
    try {
      Services.Target t = s.target(call, op.dir());
      dir = t.node();
      Access.require(t.caller().who(), dir, Nfs3.ACCESS_LOOKUP);
      Node found = s.resolver().lookup(t.caller().export(), dir, op.name());
      out.writeInt(Nfs3.OK).writeOpaque(found.handle().bytes());
      Attributes.postOp(out, found, s.files().size(found));
      Attributes.postOp(out, dir, 0);
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.postOp(out, dir, 0);
    }
  }

  void create(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    DirOp op = DirOp.read(in);
    int how = in.readInt();
    Attributes.Change attrs = null;
    byte[] verifier = null;
    switch (how) {
      case Nfs3.UNCHECKED, Nfs3.GUARDED -> attrs = Attributes.Change.read(in);
      case Nfs3.EXCLUSIVE -> {
        verifier = new byte[8];
        in.readFixed(verifier);
      }
      default -> throw new XdrException("createmode3 " + how);
    }
    Services.Target t = null;
    try {
      t = changing(call, op);
      String path = Resolver.child(t.node(), op.name());
      int mode = attrs != null && attrs.mode() != null ? attrs.mode() : 0644;
      Node made;
      try {
        // the create itself tells whether the name is taken (no lookup before it), and its reply
        // carries what the handle needs (no stat after it): one meta call
        VirtualFileSystem fs = s.fs(t.caller());
        FileStatus status =
            Services.await(fs.createEntry(path, CreateOptions.defaults().mode(mode)));
        FileStatus given = giveAway(fs, path, t.caller().who(), attrs);
        status = given != null ? given : status;
        if (verifier != null) {
          status =
              Services.await(
                  fs.changeAttributes(path, 0, AttributeChange.modified(exclusiveTime(verifier))));
        }
        s.changes().changed(t.node().handle().fileId());
        made = s.resolver().node(t.caller().export(), status);
      } catch (NfsError e) {
        FileStatus existing = e.status() == Nfs3.ERR_EXIST ? existing(path) : null;
        if (existing == null) {
          throw e;
        }
        made = again(t, existing, how, verifier, attrs);
      }
      created(out, made);
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.wcc(out, t == null ? null : t.node(), 0);
    }
  }

  /**
   * CREATE of a name that exists: GUARDED refuses; UNCHECKED truncates as asked; EXCLUSIVE succeeds
   * only for the retransmission of the same create (its verifier is the file's mtime).
   */
  private Node again(
      Services.Target t, FileStatus existing, int how, byte[] verifier, Attributes.Change attrs)
      throws NfsError {
    Node node = s.resolver().node(t.caller().export(), existing);
    if (existing.directory()) {
      throw new NfsError(Nfs3.ERR_EXIST, existing.path() + " is a directory");
    }
    if (how == Nfs3.GUARDED
        || (how == Nfs3.EXCLUSIVE && !existing.modified().equals(exclusiveTime(verifier)))) {
      throw new NfsError(Nfs3.ERR_EXIST, existing.path() + " exists");
    }
    if (attrs != null && attrs.size() != null) {
      Access.require(t.caller().who(), node, Nfs3.ACCESS_MODIFY);
      s.files().truncate(node, attrs.size());
      s.changes().forget(existing.fileId());
      return s.resolver().byPath(t.caller().export(), existing.path());
    }
    return node;
  }

  /**
   * The verifier of an EXCLUSIVE create kept as the file's mtime, as Linux servers keep it; in
   * whole milliseconds, what the namespace keeps, so a retransmission finds it again.
   */
  private static Instant exclusiveTime(byte[] verifier) {
    ByteBuffer b = ByteBuffer.wrap(verifier);
    long seconds = Integer.toUnsignedLong(b.getInt());
    return Instant.ofEpochSecond(seconds, Integer.remainderUnsigned(b.getInt(), 1000) * 1_000_000L);
  }

  void mkdir(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    DirOp op = DirOp.read(in);
    Attributes.Change attrs = Attributes.Change.read(in);
    Services.Target t = null;
    try {
      t = changing(call, op);
      String path = Resolver.child(t.node(), op.name());
      int mode = attrs.mode() != null ? attrs.mode() : 0755;
      VirtualFileSystem fs = s.fs(t.caller());
      FileStatus made = Services.await(fs.mkdir(path, false, CreateOptions.defaults().mode(mode)));
      FileStatus given = giveAway(fs, path, t.caller().who(), attrs);
      made = given != null ? given : made;
      s.changes().changed(t.node().handle().fileId());
      created(out, s.resolver().node(t.caller().export(), made));
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.wcc(out, t == null ? null : t.node(), 0);
    }
  }

  /** SYMLINK, MKNOD: decoded (bad arguments are still GARBAGE_ARGS), then not supported. */
  void symlink(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    DirOp.read(in);
    Attributes.Change.read(in);
    in.readString(Nfs3.MAX_PATH, "symlink target");
    notSupported(out);
  }

  void mknod(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    DirOp.read(in);
    int type = in.readInt();
    if (type == 3 || type == 4) { // NF3CHR, NF3BLK: sattr3 and specdata3
      Attributes.Change.read(in);
      in.readInt();
      in.readInt();
    } else if (type == 6 || type == 7) { // NF3SOCK, NF3FIFO: sattr3
      Attributes.Change.read(in);
    }
    notSupported(out);
  }

  void link(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    Services.readHandle(in);
    DirOp.read(in);
    out.writeInt(Nfs3.ERR_NOTSUPP);
    Attributes.postOp(out, null, 0);
    Attributes.wcc(out, null, 0);
  }

  /** Tessera keeps regular files and directories only. */
  private static void notSupported(XdrWriter out) {
    out.writeInt(Nfs3.ERR_NOTSUPP);
    Attributes.wcc(out, null, 0);
  }

  void remove(RpcCall call, XdrWriter out, boolean directory) throws XdrException {
    DirOp op = DirOp.read(call.args());
    Services.Target t = null;
    try {
      t = changing(call, op);
      if (op.name().equals(".") || op.name().equals("..")) {
        throw new NfsError(Nfs3.ERR_INVAL, "cannot remove " + op.name());
      }
      String path = Resolver.child(t.node(), op.name());
      FileStatus victim = existing(path);
      if (victim == null) {
        throw new NfsError(Nfs3.ERR_NOENT, path + " does not exist");
      }
      if (directory && !victim.directory()) {
        throw new NfsError(Nfs3.ERR_NOTDIR, path + " is not a directory");
      }
      if (!directory && victim.directory()) {
        throw new NfsError(Nfs3.ERR_ISDIR, path + " is a directory");
      }
      Services.await(s.fs(t.caller()).delete(path, false));
      s.changes().forget(victim.fileId());
      out.writeInt(Nfs3.OK);
      Node after = s.refreshed(t);
      Attributes.wcc(out, after, 0);
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.wcc(out, t == null ? null : t.node(), 0);
    }
  }

  void rename(RpcCall call, XdrWriter out) throws XdrException {
    XdrReader in = call.args();
    DirOp from = DirOp.read(in);
    DirOp to = DirOp.read(in);
    Services.Target src = null;
    Services.Target dst = null;
    try {
      src = changing(call, from);
      dst = changing(call, to);
      if (src.caller().export().id() != dst.caller().export().id()) {
        throw new NfsError(Nfs3.ERR_XDEV, "a rename cannot cross exports");
      }
      Services.await(
          s.fs(src.caller())
              .rename(
                  Resolver.child(src.node(), from.name()),
                  Resolver.child(dst.node(), to.name()),
                  true));
      s.changes().clear(); // a directory moved takes every path below it along
      out.writeInt(Nfs3.OK);
      Attributes.wcc(out, s.refreshed(src), 0);
      Attributes.wcc(out, s.refreshed(dst), 0);
    } catch (NfsError e) {
      out.writeInt(e.status());
      Attributes.wcc(out, src == null ? null : src.node(), 0);
      Attributes.wcc(out, dst == null ? null : dst.node(), 0);
    }
  }

  /** A directory the caller may add entries to or remove them from, and a name it may use. */
  private Services.Target changing(RpcCall call, DirOp op) throws NfsError {
    Services.Target t = s.target(call, op.dir());
    if (!t.node().directory()) {
      throw new NfsError(Nfs3.ERR_NOTDIR, t.node().path() + " is not a directory");
    }
    t.requireChangeable();
    Access.require(t.caller().who(), t.node(), Nfs3.ACCESS_MODIFY | Nfs3.ACCESS_LOOKUP);
    Resolver.checkName(op.name());
    return t;
  }

  private FileStatus existing(String path) throws NfsError {
    try {
      return Services.await(s.fs().stat(path));
    } catch (NfsError e) {
      if (e.status() == Nfs3.ERR_NOENT) {
        return null;
      }
      throw e;
    }
  }

  /**
   * Gives a new object to whom root names in the create's attributes (the caller owns it
   * otherwise); returns its attributes after, or null when nothing was given.
   */
  private static FileStatus giveAway(
      VirtualFileSystem fs, String path, UnixCredential who, Attributes.Change attrs)
      throws NfsError {
    if (who.uid() != 0 || attrs == null || (attrs.uid() == null && attrs.gid() == null)) {
      return null;
    }
    return Services.await(
        fs.changeAttributes(path, 0, AttributeChange.owner(attrs.uid(), attrs.gid())));
  }

  /**
   * CREATE3resok / MKDIR3resok: the handle and its attributes; the directory's wcc carries none (a
   * client asks for them when it needs them), which spares a meta call per create.
   */
  private static void created(XdrWriter out, Node made) {
    out.writeInt(Nfs3.OK).writeBool(true).writeOpaque(made.handle().bytes());
    Attributes.postOp(out, made, made.status().size());
    Attributes.wcc(out, null, 0);
  }
}
