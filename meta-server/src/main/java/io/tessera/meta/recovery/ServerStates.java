package io.tessera.meta.recovery;

import io.tessera.common.proto.DataServerStateProto;
import io.tessera.meta.namespace.NamespaceTxn;
import io.tessera.meta.proto.RebuildDoneProto;
import io.tessera.meta.proto.ServerStateChangeProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicated life cycle of a data server, applied identically on every meta replica:
 * UP, DOWN (the leader found it silent), RECOVERING (it spoke again; it serves only the
 * recovery coordinator until every file stale on it is rebuilt), UP again.
 */
public final class ServerStates {
  private static final Logger LOG = LoggerFactory.getLogger(ServerStates.class);

  private ServerStates() {}

  /** The state of a server; one never found down has no record and is UP. */
  public static DataServerStateProto of(NamespaceTxn tx, String server) {
    ServerStateRecordProto r = tx.serverState(server);
    return r == null ? DataServerStateProto.UP : r.getState();
  }

  /** A heartbeat from the server was applied: one that was DOWN starts recovering. Returns its state. */
  public static DataServerStateProto heard(NamespaceTxn tx, String server, long now) {
    DataServerStateProto state = of(tx, server);
    if (state == DataServerStateProto.DOWN) {
      state = DataServerStateProto.RECOVERING;
      tx.setServerState(server, ServerStateRecordProto.newBuilder().setState(state).setSinceMs(now).build());
      LOG.info("Data server {} is back: recovering ({} files to rebuild)", server,
          tx.hasStaleFiles(server) ? "some" : "no");
    }
    return state;
  }

  /** The leader's DOWN, or the coordinator's UP once nothing is stale on the server any more. */
  public static boolean change(NamespaceTxn tx, ServerStateChangeProto change, long now) {
    String server = change.getServer();
    DataServerStateProto state = of(tx, server);
    switch (change.getState()) {
      case DOWN -> {
        if (state == DataServerStateProto.DOWN) {
          return false;
        }
        tx.setServerState(server, ServerStateRecordProto.newBuilder().setState(DataServerStateProto.DOWN)
            .setSinceMs(now).build());
        LOG.warn("Data server {} is down: no heartbeat for {} ms", server, change.getSilentMs());
        return true;
      }
      case UP -> {
        if (state != DataServerStateProto.RECOVERING || tx.hasStaleFiles(server)) {
          return false;
        }
        tx.setServerState(server, ServerStateRecordProto.newBuilder().setState(DataServerStateProto.UP)
            .setSinceMs(now).build());
        LOG.info("Data server {} is up: recovery finished", server);
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** The server found corrupt shards of these files: each becomes stale there, so recovery rewrites them. */
  public static void corrupt(NamespaceTxn tx, String server, java.util.List<Long> fileIds) {
    for (long fileId : fileIds) {
      io.tessera.common.proto.InodeProto in = tx.inode(fileId);
      if (in == null || !in.getLayout().getServersList().contains(server) || in.getLayout().getParityUnits() == 0
          || in.getStaleServersList().contains(server)) {
        continue;
      }
      tx.putInode(in.toBuilder().addStaleServers(server).build());
      LOG.warn("Data server {} holds a corrupt shard of file {}: marked stale there until recovery rewrites it",
          server, fileId);
    }
  }

  /** Recovery rebuilt the server's shards of a file. */
  public static void rebuilt(NamespaceTxn tx, RebuildDoneProto done) {
    tx.clearStale(done.getFileId(), done.getServer());
  }
}
