package io.tessera.nfs.v3;

import io.tessera.common.proto.ActorProto;
import io.tessera.nfs.export.ClientRule;
import io.tessera.nfs.export.Export;
import io.tessera.nfs.export.Exports;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.UnixCredential;

/**
 * The check every NFS call passes, not only MOUNT: the handle's export must exist on this gateway,
 * list the caller's address and, when {@code secure}, see it call from a privileged port; the
 * caller then acts with the identity the export's squashing gives it, and the meta group checks its
 * namespace requests as that user (the gateway is a trusted proxy for it).
 */
public final class Gate {
  private final Exports exports;

  public Gate(Exports exports) {
    this.exports = exports;
  }

  /**
   * Who calls, through which export.
   *
   * @param export the export the handle belongs to
   * @param rule the export's rule for the caller's address
   * @param who the caller's identity after squashing
   */
  public record Caller(Export export, ClientRule rule, UnixCredential who, String from) {
    /** The user the meta group acts for on this caller's behalf. */
    public ActorProto actor() {
      ActorProto.Builder a =
          ActorProto.newBuilder()
              .setName("nfs-uid-" + Integer.toUnsignedString(who.uid()))
              .setUid(who.uid())
              .setGid(who.gid())
              .setFrom(from);
      for (int g : who.gids()) {
        a.addGroups(g);
      }
      return a.build();
    }

    /** Refuses changes through a read-only export. */
    public void requireWritable() throws NfsError {
      if (!rule.readWrite()) {
        throw new NfsError(Nfs3.ERR_ROFS, "export " + export.path() + " is read-only for you");
      }
    }
  }

  public Caller admit(RpcCall call, FileHandle h) throws NfsError {
    Export export =
        exports
            .byId(h.export())
            .orElseThrow(() -> new NfsError(Nfs3.ERR_STALE, "this gateway has no such export"));
    ClientRule rule =
        export
            .ruleFor(call.client())
            .orElseThrow(
                () ->
                    new NfsError(
                        Nfs3.ERR_ACCES,
                        call.client().getHostAddress() + " is not a client of " + export.path()));
    if (!rule.admitsPort(call.clientPort())) {
      throw new NfsError(
          Nfs3.ERR_ACCES,
          "calls to "
              + export.path()
              + " must come from a privileged port (the export is secure; insecure allows"
              + " others)");
    }
    return new Caller(
        export,
        rule,
        rule.effective(call.credential()),
        call.client().getHostAddress() + ":" + call.clientPort());
  }
}
