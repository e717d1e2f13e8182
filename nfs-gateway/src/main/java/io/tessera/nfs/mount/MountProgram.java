package io.tessera.nfs.mount;

import io.tessera.client.VirtualFileSystem;
import io.tessera.nfs.export.ClientRule;
import io.tessera.nfs.export.Export;
import io.tessera.nfs.export.Exports;
import io.tessera.nfs.oncrpc.RpcCall;
import io.tessera.nfs.oncrpc.RpcProgram;
import io.tessera.nfs.oncrpc.RpcRefusal;
import io.tessera.nfs.oncrpc.XdrException;
import io.tessera.nfs.oncrpc.XdrWriter;
import io.tessera.nfs.v3.NfsError;
import io.tessera.nfs.v3.Node;
import io.tessera.nfs.v3.Resolver;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MOUNT version 3 (RFC 1813 appendix I): hands out the root handle of an export, or of a directory
 * below one, to the clients the export names, and lists exports and mounts.
 */
public final class MountProgram implements RpcProgram {
  private static final Logger LOG = LoggerFactory.getLogger(MountProgram.class);
  public static final int PROGRAM = 100005;
  private static final int VERSION = 3;
  private static final int MNT = 1;
  private static final int DUMP = 2;
  private static final int UMNT = 3;
  private static final int UMNTALL = 4;
  private static final int EXPORT = 5;
  private static final int MNT3_OK = 0;
  private static final int MNT3ERR_NOENT = 2;
  private static final int MNT3ERR_ACCES = 13;
  private static final int MNT3ERR_NOTDIR = 20;
  private static final int MNT3ERR_SERVERFAULT = 10006;
  private static final int AUTH_UNIX = 1;
  private static final int MAX_MOUNTS = 1024;

  private final Exports exports;
  private final Resolver resolver;

  /** Who mounted what (DUMP): client address and path, as the protocol keeps it, bounded. */
  private final Map<String, String> mounts = new ConcurrentHashMap<>();

  public MountProgram(Exports exports, Resolver resolver) {
    this.exports = exports;
    this.resolver = resolver;
  }

  @Override
  public int number() {
    return PROGRAM;
  }

  @Override
  public int lowVersion() {
    return VERSION;
  }

  @Override
  public int highVersion() {
    return VERSION;
  }

  @Override
  public void call(RpcCall call, XdrWriter out) throws RpcRefusal {
    try {
      switch (call.procedure()) {
        case 0 -> {}
        case MNT -> mount(call, call.args().readString(1024, "mount path"), out);
        case DUMP -> dump(out);
        case UMNT -> mounts.remove(key(call, call.args().readString(1024, "mount path")));
        case UMNTALL ->
            mounts.keySet().removeIf(k -> k.startsWith(call.client().getHostAddress() + " "));
        case EXPORT -> export(out);
        default -> throw RpcRefusal.procedureUnavailable(call.procedure());
      }
    } catch (XdrException e) {
      throw new RpcRefusal(RpcRefusal.GARBAGE_ARGS, e.getMessage());
    }
  }

  private void mount(RpcCall call, String path, XdrWriter out) {
    if (!path.isEmpty() && !path.startsWith("/")) {
      out.writeInt(MNT3ERR_NOENT);
      return;
    }
    String p = VirtualFileSystem.normalize("/" + path); // libnfs mounts "" for the root
    Optional<Export> export =
        exports.all().stream()
            .filter(e -> e.covers(p))
            .max(Comparator.comparingInt(e -> e.path().length()));
    Optional<ClientRule> rule = export.flatMap(e -> e.ruleFor(call.client()));
    if (export.isEmpty() || rule.isEmpty()) {
      LOG.info("refused mount of {} by {}: no export for it", p, call.client().getHostAddress());
      out.writeInt(export.isEmpty() ? MNT3ERR_NOENT : MNT3ERR_ACCES);
      return;
    }
    if (!rule.get().admitsPort(call.clientPort())) {
      LOG.info(
          "refused mount of {} by {}: its port {} is not privileged and the export is secure"
              + " (the insecure option allows it)",
          p,
          call.client().getHostAddress(),
          call.clientPort());
      out.writeInt(MNT3ERR_ACCES);
      return;
    }
    Node root;
    try {
      root = resolver.root(export.get(), p);
    } catch (NfsError e) {
      out.writeInt(e.status() == 2 ? MNT3ERR_NOENT : MNT3ERR_SERVERFAULT);
      return;
    }
    if (!root.directory()) {
      out.writeInt(MNT3ERR_NOTDIR);
      return;
    }
    if (mounts.size() < MAX_MOUNTS) {
      mounts.put(key(call, p), p);
    }
    out.writeInt(MNT3_OK).writeOpaque(root.handle().bytes());
    out.writeInt(1).writeInt(AUTH_UNIX);
  }

  private static String key(RpcCall call, String path) {
    return call.client().getHostAddress() + " " + path;
  }

  private void dump(XdrWriter out) {
    for (String k : mounts.keySet()) {
      int space = k.indexOf(' ');
      out.writeBool(true).writeString(k.substring(0, space)).writeString(k.substring(space + 1));
    }
    out.writeBool(false);
  }

  private void export(XdrWriter out) {
    for (Export e : exports.all()) {
      out.writeBool(true).writeString(e.path());
      for (ClientRule r : e.rules()) {
        out.writeBool(true).writeString(r.clients().text());
      }
      out.writeBool(false);
    }
    out.writeBool(false);
  }
}
