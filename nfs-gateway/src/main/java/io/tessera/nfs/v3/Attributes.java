package io.tessera.nfs.v3;

import io.tessera.client.FileStatus;
import io.tessera.common.layout.StripeLayout;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrReader;
import io.tessera.nfs.oncrpc.XdrWriter;
import java.time.Instant;

/** fattr3, post_op_attr, wcc_data and sattr3 (RFC 1813 section 2.5) from and to Tessera's view. */
public final class Attributes {
  private Attributes() {}

  /** fattr3 of a node; {@code size} may exceed the namespace's while writes are gathered. */
  public static void fattr(XdrWriter out, Node n, long size) {
    FileStatus s = n.status();
    long bytes = s.directory() ? 4096 : Math.max(size, s.size());
    out.writeInt(s.directory() ? Nfs3.DIR : Nfs3.REG)
        .writeInt(s.mode() & 07777)
        .writeInt(s.directory() ? 2 : 1)
        .writeInt(s.owner().uid())
        .writeInt(s.owner().gid())
        .writeHyper(bytes)
        .writeHyper(used(s, bytes))
        .writeInt(0)
        .writeInt(0)
        .writeHyper(n.fsid())
        .writeHyper(s.fileId());
    time(out, s.modified()); // atime: reads do not record access times
    time(out, s.modified());
    time(out, s.changed());
  }

  /** Bytes the file takes on the data servers, parity included. */
  private static long used(FileStatus s, long size) {
    StripeLayout l = s.layout();
    if (l == null || l.dataUnits() == 0) {
      return size;
    }
    return size / l.dataUnits() * l.width() + (size % l.dataUnits() == 0 ? 0 : l.width());
  }

  public static void postOp(XdrWriter out, Node n, long size) {
    if (n == null) {
      out.writeBool(false);
    } else {
      out.writeBool(true);
      fattr(out, n, size);
    }
  }

  /** wcc_data with no attributes before (the gateway keeps none) and these after. */
  public static void wcc(XdrWriter out, Node after, long size) {
    out.writeBool(false);
    postOp(out, after, size);
  }

  public static void time(XdrWriter out, Instant t) {
    out.writeInt((int) t.getEpochSecond()).writeInt(t.getNano());
  }

  public static Instant readTime(XdrReader in) throws XdrException {
    long seconds = Integer.toUnsignedLong(in.readInt());
    int nanos = in.readInt();
    if (nanos < 0 || nanos >= 1_000_000_000) {
      throw new XdrException("nseconds " + Integer.toUnsignedString(nanos) + " is over a second");
    }
    return Instant.ofEpochSecond(seconds, nanos);
  }

  /**
   * sattr3: what a SETATTR, CREATE or MKDIR asks to set; null fields stay as they are.
   *
   * @param mode permission bits
   * @param uid owner
   * @param gid group
   * @param size new size (truncate)
   * @param modified new modification time
   */
  public record Change(Integer mode, Integer uid, Integer gid, Long size, Instant modified) {
    public static Change read(XdrReader in) throws XdrException {
      Integer mode = in.readBool() ? in.readInt() & 07777 : null;
      Integer uid = in.readBool() ? in.readInt() : null;
      Integer gid = in.readBool() ? in.readInt() : null;
      Long size = in.readBool() ? in.readHyper() : null;
      readHow(in); // atime: not recorded
      Instant modified = readHow(in);
      return new Change(mode, uid, gid, size, modified);
    }

    private static Instant readHow(XdrReader in) throws XdrException {
      int how = in.readInt();
      return switch (how) {
        case Nfs3.DONT_CHANGE -> null;
        case Nfs3.SET_TO_SERVER_TIME -> Instant.now();
        case Nfs3.SET_TO_CLIENT_TIME -> readTime(in);
        default -> throw new XdrException("time_how " + how);
      };
    }

    public boolean changesAttributes() {
      return mode != null || uid != null || gid != null || modified != null;
    }
  }
}
