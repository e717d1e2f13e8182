package io.tessera.nfs.v3;

import io.tessera.common.metrics.RequestMetrics;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.RpcProgram;
import io.tessera.nfs.oncrpc.RpcRefusal;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrWriter;

/** NFS version 3 (RFC 1813): the 22 procedures, each answered with its result or its nfsstat3. */
public final class Nfs3Program implements RpcProgram {
  private final FileProcedures file;
  private final DirectoryProcedures dir;
  private final ReadDirProcedures readdir;
  private final FsProcedures fs;
  private final RequestMetrics<Nfs3Procedure> metrics;

  /** {@code metrics}: per-procedure counts and latencies (of calls answered, not refused). */
  public Nfs3Program(Services services, RequestMetrics<Nfs3Procedure> metrics) {
    this.metrics = metrics;
    this.file = new FileProcedures(services);
    this.dir = new DirectoryProcedures(services);
    this.readdir = new ReadDirProcedures(services);
    this.fs = new FsProcedures(services);
  }

  @Override
  public int number() {
    return Nfs3.PROGRAM;
  }

  @Override
  public int lowVersion() {
    return Nfs3.VERSION;
  }

  @Override
  public int highVersion() {
    return Nfs3.VERSION;
  }

  @Override
  public void call(RpcCall call, XdrWriter out) throws RpcRefusal {
    long start = System.nanoTime();
    answer(call, out);
    metrics.record(Nfs3Procedure.of(call.procedure()), start, true);
  }

  private void answer(RpcCall call, XdrWriter out) throws RpcRefusal {
    try {
      switch (call.procedure()) {
        case Nfs3.NULL -> {}
        case Nfs3.GETATTR -> file.getattr(call, out);
        case Nfs3.SETATTR -> file.setattr(call, out);
        case Nfs3.LOOKUP -> dir.lookup(call, out);
        case Nfs3.ACCESS -> file.access(call, out);
        case Nfs3.READLINK -> file.readlink(call, out);
        case Nfs3.READ -> file.read(call, out);
        case Nfs3.WRITE -> file.write(call, out);
        case Nfs3.CREATE -> dir.create(call, out);
        case Nfs3.MKDIR -> dir.mkdir(call, out);
        case Nfs3.SYMLINK -> dir.symlink(call, out);
        case Nfs3.MKNOD -> dir.mknod(call, out);
        case Nfs3.REMOVE -> dir.remove(call, out, false);
        case Nfs3.RMDIR -> dir.remove(call, out, true);
        case Nfs3.RENAME -> dir.rename(call, out);
        case Nfs3.LINK -> dir.link(call, out);
        case Nfs3.READDIR -> readdir.readdir(call, out, false);
        case Nfs3.READDIRPLUS -> readdir.readdir(call, out, true);
        case Nfs3.FSSTAT -> fs.fsstat(call, out);
        case Nfs3.FSINFO -> fs.fsinfo(call, out);
        case Nfs3.PATHCONF -> fs.pathconf(call, out);
        case Nfs3.COMMIT -> file.commit(call, out);
        default -> throw RpcRefusal.procedureUnavailable(call.procedure());
      }
    } catch (XdrException e) {
      throw new RpcRefusal(RpcRefusal.GARBAGE_ARGS, e.getMessage());
    }
  }
}
