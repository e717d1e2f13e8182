package io.tessera.nfs.v3;

import io.tessera.client.VirtualFileSystem;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrReader;
import io.tessera.nfs.oncrpc.XdrWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * What the procedures share: the client, handle resolution, the export check, the open files and
 * the write verifier of this gateway's run.
 *
 * @param fs the Tessera client the gateway acts through
 * @param resolver handles to nodes
 * @param gate the export check of every call
 * @param files open files and gathered writes
 * @param verifier the write verifier: new at every start, so clients resend uncommitted writes
 */
public record Services(
    VirtualFileSystem fs, Resolver resolver, Gate gate, OpenFiles files, byte[] verifier) {

  /** A handle argument (nfs_fh3): bad lengths are GARBAGE_ARGS, unknown handles BADHANDLE. */
  public static byte[] readHandle(XdrReader in) throws XdrException {
    return in.readOpaque(Nfs3.MAX_HANDLE, "file handle");
  }

  /**
   * The client acting for the caller: the meta group checks and does namespace requests as the user
   * the export's squashing makes of it.
   */
  public VirtualFileSystem fs(Gate.Caller caller) {
    return fs.actingFor(caller.actor());
  }

  /** The node of a handle argument, after the export check. */
  public Target target(RpcCall call, byte[] handle) throws NfsError {
    FileHandle h = FileHandle.of(handle);
    Gate.Caller caller = gate.admit(call, h);
    return new Target(caller, resolver.resolve(h, caller.export()));
  }

  /** The same, with attributes none of the gateway's own calls changed since: for GETATTR. */
  public Target unchangedTarget(RpcCall call, byte[] handle) throws NfsError {
    FileHandle h = FileHandle.of(handle);
    Gate.Caller caller = gate.admit(call, h);
    return new Target(caller, resolver.resolveUnchanged(h, caller.export()));
  }

  /** What the gateway's own calls changed, for the attributes it keeps. */
  public AttributeCache changes() {
    return resolver.cache();
  }

  /** A node and who reaches it through which export. */
  public record Target(Gate.Caller caller, Node node) {
    /** Refuses a change: in a snapshot, or through an export read-only for the caller (ROFS). */
    public void requireChangeable() throws NfsError {
      if (node.readOnly()) {
        throw new NfsError(Nfs3.ERR_ROFS, node.path() + " is in a snapshot: read-only");
      }
      caller.requireWritable();
    }
  }

  /** The node's attributes again, after a change (null when it is gone). */
  public Node refreshed(Target t) {
    resolver.cache().forget(t.node().handle().fileId());
    try {
      return resolver.resolve(t.node().handle(), t.caller().export());
    } catch (NfsError e) {
      return null;
    }
  }

  /** The rest of a result after the node's attributes; throws to answer with a failure instead. */
  public interface Result {
    void write(Target t, XdrWriter out) throws NfsError;
  }

  /**
   * Answers a procedure whose reply, success or failure, starts with the node's post_op_attr
   * (ACCESS, READLINK, FSSTAT, FSINFO, PATHCONF): status, attributes, then {@code result}.
   */
  public void answer(RpcCall call, byte[] handle, XdrWriter out, Result result) {
    Node n = null;
    int start = out.size();
    try {
      Target t = target(call, handle);
      n = t.node();
      out.writeInt(Nfs3.OK);
      Attributes.postOp(out, n, files.size(n));
      result.write(t, out);
    } catch (NfsError e) {
      out.buffer().writerIndex(start); // what the result wrote before it failed
      out.writeInt(e.status());
      Attributes.postOp(out, n, 0);
    }
  }

  /** Waits for a client call, mapping its failure to an NFS status. */
  public static <T> T await(CompletableFuture<T> f) throws NfsError {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw NfsError.of(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NfsError(Nfs3.ERR_JUKEBOX, "interrupted");
    }
  }
}
