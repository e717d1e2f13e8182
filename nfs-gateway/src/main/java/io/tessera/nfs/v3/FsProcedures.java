package io.tessera.nfs.v3;

import io.tessera.client.Capacity;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrWriter;

/** FSSTAT, FSINFO and PATHCONF: the file system as a whole. */
final class FsProcedures {
  private static final long CAPACITY_TTL_MS = 2000;
  private static final int FSF3_HOMOGENEOUS = 0x08;
  private static final int FSF3_CANSETTIME = 0x10;

  /** File counts: the namespace has no fixed number of inodes. */
  private static final long FILES = 1L << 40;

  private final Services s;
  private volatile Capacity capacity;
  private volatile long capacityAt;

  FsProcedures(Services s) {
    this.s = s;
  }

  /** Capacity and free space of the data servers in service, cached for two seconds. */
  private Capacity capacity() throws NfsError {
    long now = System.currentTimeMillis();
    Capacity c = capacity;
    if (c == null || now - capacityAt > CAPACITY_TTL_MS) {
      c = Services.await(s.fs().capacity());
      capacity = c;
      capacityAt = now;
    }
    return c;
  }

  void fsstat(RpcCall call, XdrWriter out) throws XdrException {
    s.answer(
        call,
        Services.readHandle(call.args()),
        out,
        (t, o) -> {
          Capacity c = capacity();
          o.writeHyper(c.totalBytes()).writeHyper(c.freeBytes()).writeHyper(c.freeBytes());
          o.writeHyper(FILES).writeHyper(FILES).writeHyper(FILES).writeInt(0);
        });
  }

  void fsinfo(RpcCall call, XdrWriter out) throws XdrException {
    s.answer(
        call,
        Services.readHandle(call.args()),
        out,
        (t, o) -> {
          int io = FileProcedures.MAX_IO;
          o.writeInt(io).writeInt(io).writeInt(4096); // rtmax, rtpref, rtmult
          o.writeInt(io).writeInt(io).writeInt(4096); // wtmax, wtpref, wtmult
          o.writeInt(64 << 10); // dtpref
          o.writeHyper(Long.MAX_VALUE);
          o.writeInt(0).writeInt(1_000_000); // time_delta: the namespace keeps milliseconds
          o.writeInt(FSF3_HOMOGENEOUS | FSF3_CANSETTIME);
        });
  }

  void pathconf(RpcCall call, XdrWriter out) throws XdrException {
    s.answer(
        call,
        Services.readHandle(call.args()),
        out,
        (t, o) -> {
          o.writeInt(1).writeInt(Nfs3.MAX_NAME); // linkmax, name_max
          // no_trunc, chown_restricted, case_insensitive, case_preserving
          o.writeBool(true).writeBool(true).writeBool(false).writeBool(true);
        });
  }
}
