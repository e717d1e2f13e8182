package io.tessera.nfs.v3;

import io.tessera.client.DirectoryPage;
import io.tessera.client.FileStatus;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrReader;
import io.tessera.nfs.oncrpc.XdrWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * READDIR and READDIRPLUS, paged. A cookie is an entry's file id + 3 (1 and 2 are "." and ".."):
 * the next page starts after that entry's name, found from the id, so cookies hold on every gateway
 * and across restarts, and a directory of 100,000 entries costs one page of the namespace per reply
 * (no skipping from the start). The cookie verifier is the directory's creation time.
 */
final class ReadDirProcedures {
  private static final long FIRST = 3;
  private static final int PAGE = 512;
  private static final int MAX_REMEMBERED = 4096;

  /** Bytes of an entry besides its name: follows, fileid, name length, cookie (and plus parts). */
  private static final int ENTRY = 4 + 8 + 4 + 8;

  private static final int PLUS = 4 + 84 + 4 + 4 + FileHandle.LENGTH + 2;

  private final Services s;

  /** Names of the last entries of recent pages: a resume without asking for the id. */
  private final Map<Place, String> lastNames = new ConcurrentHashMap<>();

  /** A cookie of a directory (a snapshot's copy of a directory is another directory). */
  private record Place(long dirId, long epoch, long cookie) {}

  ReadDirProcedures(Services s) {
    this.s = s;
  }

  void readdir(RpcCall call, XdrWriter out, boolean plus) throws XdrException {
    XdrReader in = call.args();
    byte[] h = Services.readHandle(in);
    long cookie = in.readHyper();
    byte[] verifier = new byte[8];
    in.readFixed(verifier);
    int dirCount = in.readInt() & 0x7fffffff;
    int maxCount = plus ? in.readInt() & 0x7fffffff : dirCount;
    Node dir = null;
    int start = out.size();
    try {
      Services.Target t = s.target(call, h);
      dir = t.node();
      if (!dir.directory()) {
        throw new NfsError(Nfs3.ERR_NOTDIR, dir.path() + " is not a directory");
      }
      Access.require(t.caller().who(), dir, Nfs3.ACCESS_READ);
      byte[] expected = verifierOf(dir);
      if (cookie != 0
          && !Arrays.equals(verifier, new byte[8])
          && !Arrays.equals(verifier, expected)) {
        throw new NfsError(Nfs3.ERR_BAD_COOKIE, "the directory's cookie verifier changed");
      }
      out.writeInt(Nfs3.OK);
      Attributes.postOp(out, dir, 0);
      out.writeFixed(expected);
      Budget budget =
          new Budget(out, start, Math.min(dirCount, 1 << 20), Math.min(maxCount, 1 << 20), plus);
      boolean eof = entries(t, dir, cookie, out, budget);
      if (budget.entries == 0 && !eof) {
        throw new NfsError(Nfs3.ERR_TOOSMALL, "not even one entry fits " + maxCount + " bytes");
      }
      out.writeBool(false).writeBool(eof);
    } catch (NfsError e) {
      out.buffer().writerIndex(start); // drop what was written before the failure
      out.writeInt(e.status());
      Attributes.postOp(out, dir, 0);
    }
  }

  /** Writes entries after {@code cookie} while they fit; true when the directory ended. */
  private boolean entries(Services.Target t, Node dir, long cookie, XdrWriter out, Budget b)
      throws NfsError {
    if (cookie == 0 && !b.add(out, t, ".", dir, 1)) {
      return false;
    }
    if (cookie <= 1) {
      Node parent = s.resolver().lookup(t.caller().export(), dir, "..");
      if (!b.add(out, t, "..", parent, 2)) {
        return false;
      }
    }
    String after = cookie < FIRST ? "" : resumeName(dir, cookie);
    while (true) {
      DirectoryPage page = Services.await(s.fs(t.caller()).list(dir.path(), after, PAGE));
      List<FileStatus> entries = page.entries();
      for (FileStatus e : entries) {
        Node n = s.resolver().node(t.caller().export(), e);
        // in /.snapshots every entry is a snapshot's root (inode 1): its epoch tells them apart
        long c = (listsSnapshots(dir) ? n.handle().epoch() : e.fileId()) + FIRST;
        if (!b.add(out, t, e.name(), n, c)) {
          return false;
        }
        remember(dir, c, e.name());
      }
      if (!page.more() || entries.isEmpty()) {
        return true;
      }
      after = page.lastName();
    }
  }

  /** The name an entry cookie stands for, to list on after it. */
  private String resumeName(Node dir, long cookie) throws NfsError {
    String name = lastNames.get(key(dir, cookie));
    if (name != null) {
      return name;
    }
    if (listsSnapshots(dir)) {
      return s.resolver().snapshotName(cookie - FIRST);
    }
    try {
      FileStatus e =
          Services.await(s.fs().statById(cookie - FIRST, Resolver.snapshotOf(dir.path())));
      String parent = e.path().isEmpty() ? "" : e.path().substring(0, e.path().lastIndexOf('/'));
      if ((parent.isEmpty() ? "/" : parent).equals(dir.path())) {
        return e.name();
      }
    } catch (NfsError gone) {
      // the entry was removed since: the cookie cannot be placed
    }
    throw new NfsError(
        Nfs3.ERR_BAD_COOKIE, "cookie " + cookie + " names no entry of " + dir.path());
  }

  private static boolean listsSnapshots(Node dir) {
    return dir.handle().kind() == FileHandle.SNAPSHOTS;
  }

  private void remember(Node dir, long cookie, String name) {
    if (lastNames.size() > MAX_REMEMBERED) {
      lastNames.clear();
    }
    lastNames.put(key(dir, cookie), name);
  }

  private static Place key(Node dir, long cookie) {
    return new Place(dir.handle().fileId(), dir.handle().epoch(), cookie);
  }

  private static byte[] verifierOf(Node dir) {
    return ByteBuffer.allocate(8).putLong(dir.status().created().toEpochMilli()).array();
  }

  /** What is left of the client's dircount and maxcount. */
  private final class Budget {
    private final XdrWriter out;
    private final int start;
    private final int maxCount;
    private final boolean plus;
    private int dirLeft;
    int entries;

    Budget(XdrWriter out, int start, int dirCount, int maxCount, boolean plus) {
      this.out = out;
      this.start = start;
      this.dirLeft = dirCount;
      this.maxCount = maxCount;
      this.plus = plus;
    }

    boolean add(XdrWriter out, Services.Target t, String name, Node n, long cookie) {
      int nameBytes = (name.getBytes(StandardCharsets.UTF_8).length + 3) & ~3;
      int dirBytes = ENTRY + nameBytes;
      int total = dirBytes + (plus ? PLUS : 0);
      // room for this entry and the closing "no more" and eof words
      if (out.size() - start + total + 8 > maxCount || (plus && dirBytes > dirLeft)) {
        return false;
      }
      dirLeft -= dirBytes;
      out.writeBool(true).writeHyper(n.status().fileId()).writeString(name).writeHyper(cookie);
      if (plus) {
        Attributes.postOp(out, n, s.files().size(n));
        out.writeBool(true).writeOpaque(n.handle().bytes());
      }
      entries++;
      return true;
    }
  }
}
