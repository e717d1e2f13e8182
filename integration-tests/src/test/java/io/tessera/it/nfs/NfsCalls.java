package io.tessera.it.nfs;

import com.emc.ecs.nfsclient.nfs.NfsCreateMode;
import com.emc.ecs.nfsclient.nfs.NfsDirectoryPlusEntry;
import com.emc.ecs.nfsclient.nfs.NfsSetAttributes;
import com.emc.ecs.nfsclient.nfs.NfsTime;
import com.emc.ecs.nfsclient.nfs.nfs3.Nfs3;
import com.emc.ecs.nfsclient.nfs.nfs3.Nfs3ReadResponse;
import com.emc.ecs.nfsclient.nfs.nfs3.Nfs3ReaddirplusResponse;
import com.emc.ecs.nfsclient.nfs.nfs3.Nfs3WriteResponse;
import com.emc.ecs.nfsclient.rpc.CredentialUnix;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * NFSv3 calls through a Java client nobody here wrote (com.emc.ecs:nfs-client), each answering with
 * the server's status: the tests assert on what a client sees.
 */
final class NfsCalls {
  static final int UNSTABLE = 0;
  static final int FILE_SYNC = 2;

  final Nfs3 nfs;

  private NfsCalls(Nfs3 nfs) {
    this.nfs = nfs;
  }

  /** Mounts {@code export} through the portmapper on 127.0.0.1, as user {@code uid}. */
  static NfsCalls mount(String export, int uid, int gid) throws IOException {
    return new NfsCalls(new Nfs3("127.0.0.1", export, new CredentialUnix(uid, gid, null), 3));
  }

  /** The same mount, its root handle given, for a gateway the portmapper now points at. */
  static NfsCalls withRoot(byte[] root, int uid, int gid) throws IOException {
    return new NfsCalls(new Nfs3("127.0.0.1", "/", root, new CredentialUnix(uid, gid, null), 3));
  }

  /** nfsstat3 names as RFC 1813 gives them (the client's own toString gives numbers). */
  private static final Map<Integer, String> NAMES =
      Map.ofEntries(
          Map.entry(0, "NFS3_OK"),
          Map.entry(1, "NFS3ERR_PERM"),
          Map.entry(2, "NFS3ERR_NOENT"),
          Map.entry(5, "NFS3ERR_IO"),
          Map.entry(13, "NFS3ERR_ACCES"),
          Map.entry(17, "NFS3ERR_EXIST"),
          Map.entry(18, "NFS3ERR_XDEV"),
          Map.entry(20, "NFS3ERR_NOTDIR"),
          Map.entry(21, "NFS3ERR_ISDIR"),
          Map.entry(22, "NFS3ERR_INVAL"),
          Map.entry(27, "NFS3ERR_FBIG"),
          Map.entry(28, "NFS3ERR_NOSPC"),
          Map.entry(30, "NFS3ERR_ROFS"),
          Map.entry(63, "NFS3ERR_NAMETOOLONG"),
          Map.entry(66, "NFS3ERR_NOTEMPTY"),
          Map.entry(70, "NFS3ERR_STALE"),
          Map.entry(10001, "NFS3ERR_BADHANDLE"),
          Map.entry(10002, "NFS3ERR_NOT_SYNC"),
          Map.entry(10003, "NFS3ERR_BAD_COOKIE"),
          Map.entry(10004, "NFS3ERR_NOTSUPP"),
          Map.entry(10005, "NFS3ERR_TOOSMALL"),
          Map.entry(10006, "NFS3ERR_SERVERFAULT"),
          Map.entry(10008, "NFS3ERR_JUKEBOX"));

  static String name(int state) {
    return NAMES.getOrDefault(state, "nfsstat3 " + state);
  }

  byte[] root() {
    return nfs.getRootFileHandle();
  }

  /** A handle found by LOOKUP, or the status name when there is none. */
  Object lookup(byte[] dir, String name) throws IOException {
    var r = nfs.getLookup(nfs.makeLookupRequest(dir, name));
    return r.getState() == 0 ? r.getFileHandle() : name(r.getState());
  }

  byte[] handle(byte[] dir, String name) throws IOException {
    Object h = lookup(dir, name);
    if (h instanceof String s) {
      throw new IOException("LOOKUP " + name + ": " + s);
    }
    return (byte[]) h;
  }

  String create(byte[] dir, String name, NfsCreateMode how) throws IOException {
    NfsSetAttributes attrs = new NfsSetAttributes();
    attrs.setMode(0644L);
    // not zeros: a verifier a server keeps with less precision than it came with is lost
    byte[] verifier =
        how == NfsCreateMode.EXCLUSIVE ? new byte[] {0, 0, 0, 1, 0x12, 0x34, 0x56, 0x78} : null;
    return name(nfs.sendCreate(nfs.makeCreateRequest(how, dir, name, attrs, verifier)).getState());
  }

  String mkdir(byte[] dir, String name, long mode) throws IOException {
    NfsSetAttributes attrs = new NfsSetAttributes();
    attrs.setMode(mode);
    return name(nfs.sendMkdir(nfs.makeMkdirRequest(dir, name, attrs)).getState());
  }

  Nfs3WriteResponse write(byte[] file, long offset, byte[] data, int stable) throws IOException {
    return nfs.sendWrite(
        // a list the client may add to
        nfs.makeWriteRequest(
            file, offset, new ArrayList<>(List.of(ByteBuffer.wrap(data))), stable));
  }

  /** Writes in pieces of at most 64 KiB; the last reply. */
  Nfs3WriteResponse writeAll(byte[] file, long offset, byte[] data, int stable) throws IOException {
    Nfs3WriteResponse last = null;
    for (int at = 0; at < data.length; at += 64 << 10) {
      byte[] piece = Arrays.copyOfRange(data, at, Math.min(data.length, at + (64 << 10)));
      last = write(file, offset + at, piece, stable);
      if (last.getState() != 0) {
        return last;
      }
    }
    return last;
  }

  /** READ of up to {@code count} bytes: the bytes, or the status name. */
  Object read(byte[] file, long offset, int count) throws IOException {
    byte[] buf = new byte[count];
    Nfs3ReadResponse r = nfs.getRead(nfs.makeReadRequest(file, offset, count), buf, 0);
    return r.getState() == 0 ? Arrays.copyOf(buf, r.getBytesRead()) : name(r.getState());
  }

  byte[] readAll(byte[] file, long size) throws IOException {
    byte[] out = new byte[(int) size];
    for (int at = 0; at < size; at += 64 << 10) {
      Object got = read(file, at, (int) Math.min(64 << 10, size - at));
      if (got instanceof String s) {
        throw new IOException("READ at " + at + ": " + s);
      }
      byte[] b = (byte[]) got;
      System.arraycopy(b, 0, out, at, b.length);
    }
    return out;
  }

  String commit(byte[] file) throws IOException {
    return name(nfs.sendCommit(nfs.makeCommitRequest(file, 0, 0)).getState());
  }

  long commitVerifier(byte[] file) throws IOException {
    var r = nfs.sendCommit(nfs.makeCommitRequest(file, 0, 0));
    if (r.getState() != 0) {
      throw new IOException("COMMIT: " + name(r.getState()));
    }
    return r.getVerf();
  }

  String truncate(byte[] file, long size) throws IOException {
    NfsSetAttributes attrs = new NfsSetAttributes();
    attrs.setSize(size);
    attrs.setAtime(NfsTime.DO_NOT_CHANGE);
    attrs.setMtime(NfsTime.DO_NOT_CHANGE);
    return name(nfs.setAttr(nfs.makeSetAttrRequest(file, attrs, null)).getState());
  }

  /** GETATTR: the size, or the status name. */
  Object size(byte[] file) throws IOException {
    var r = nfs.getAttr(nfs.makeGetAttrRequest(file));
    return r.getState() == 0 ? (Object) r.getAttributes().getSize() : name(r.getState());
  }

  String getattr(byte[] file) throws IOException {
    return name(nfs.getAttr(nfs.makeGetAttrRequest(file)).getState());
  }

  String rename(byte[] fromDir, String from, byte[] toDir, String to) throws IOException {
    return name(nfs.sendRename(nfs.makeRenameRequest(fromDir, from, toDir, to)).getState());
  }

  String remove(byte[] dir, String name) throws IOException {
    return name(nfs.sendRemove(nfs.makeRemoveRequest(dir, name)).getState());
  }

  String rmdir(byte[] dir, String name) throws IOException {
    return name(nfs.sendRmdir(nfs.makeRmdirRequest(dir, name)).getState());
  }

  /** Every name of a directory through READDIRPLUS in replies of at most {@code maxCount}. */
  List<String> listPlus(byte[] dir, int maxCount) throws IOException {
    List<String> names = new ArrayList<>();
    long cookie = 0;
    long verifier = 0;
    while (true) {
      Nfs3ReaddirplusResponse r =
          nfs.getReaddirplus(
              nfs.makeReaddirplusRequest(dir, cookie, verifier, maxCount / 2, maxCount));
      if (r.getState() != 0) {
        throw new IOException("READDIRPLUS after cookie " + cookie + ": " + name(r.getState()));
      }
      for (NfsDirectoryPlusEntry e : r.getEntries()) {
        names.add(e.getFileName());
        cookie = e.getCookie();
      }
      verifier = r.getCookieverf();
      if (r.isEof()) {
        return names;
      }
    }
  }
}
