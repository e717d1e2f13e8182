package io.tessera.meta.state;

import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.meta.proto.LayoutMoveProto;
import io.tessera.meta.proto.RebuildDoneProto;
import io.tessera.meta.proto.ServerStateChangeProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicated life cycle of a data server, applied identically on every meta replica: UP, DOWN
 * (the leader found it silent), RECOVERING (it spoke again; it serves only the recovery coordinator
 * until every file stale on it is rebuilt), UP again. A server an operator decommissions, or one
 * DOWN past the replacement timeout, is DRAINING (its units move to other servers) and then RETIRED
 * (no file names it). A decommissioned server stays out; a replaced one that speaks again recovers
 * like any returning server (leftover copies dropped first). An operator may then remove a retired
 * server that no longer runs: it is forgotten.
 */
public final class ServerStates {
  private static final Logger LOG = LoggerFactory.getLogger(ServerStates.class);

  private ServerStates() {}

  /** The state of a server; one never found down has no record and is UP. */
  public static DataServerStateProto of(NamespaceTxn tx, String server) {
    ServerStateRecordProto r = tx.serverState(server);
    return r == null ? DataServerStateProto.UP : r.getState();
  }

  /**
   * A heartbeat from the server was applied: one that was DOWN, or replaced after a long DOWN,
   * starts recovering. Returns its state.
   */
  public static DataServerStateProto heard(NamespaceTxn tx, String server, long now) {
    ServerStateRecordProto r = tx.serverState(server);
    DataServerStateProto state = r == null ? DataServerStateProto.UP : r.getState();
    boolean replaced =
        r != null
            && !r.getDecommissioned()
            && (state == DataServerStateProto.DRAINING || state == DataServerStateProto.RETIRED);
    if (state == DataServerStateProto.DOWN || replaced) {
      state = DataServerStateProto.RECOVERING;
      tx.setServerState(
          server, ServerStateRecordProto.newBuilder().setState(state).setSinceMs(now).build());
      LOG.info(
          "Data server {} is back{}: recovering ({} files to rebuild)",
          server,
          replaced ? " after recovery began moving its shards elsewhere" : "",
          tx.hasStaleFiles(server) ? "some" : "no");
    }
    return state;
  }

  /** The leader's DOWN, or the coordinator's UP once nothing is stale on the server any more. */
  public static boolean change(NamespaceTxn tx, ServerStateChangeProto change, long now) {
    String server = change.getServer();
    DataServerStateProto state = of(tx, server);
    if (change.getRemoved()) {
      if (state != DataServerStateProto.RETIRED || tx.hasPlacedFiles(server)) {
        return false;
      }
      tx.forgetServer(server);
      LOG.info("Data server {} removed: retired, stopped, and forgotten", server);
      return true;
    }
    switch (change.getState()) {
      case DOWN -> {
        // a draining or retired server's absence changes nothing: its files are read around it
        if (state == DataServerStateProto.DOWN
            || state == DataServerStateProto.DRAINING
            || state == DataServerStateProto.RETIRED) {
          return false;
        }
        tx.setServerState(
            server,
            ServerStateRecordProto.newBuilder()
                .setState(DataServerStateProto.DOWN)
                .setSinceMs(now)
                .build());
        LOG.warn("Data server {} is down: no heartbeat for {} ms", server, change.getSilentMs());
        return true;
      }
      case DRAINING -> {
        boolean fromDown = state == DataServerStateProto.DOWN && !change.getDecommissioned();
        boolean byOperator =
            change.getDecommissioned()
                && state != DataServerStateProto.DRAINING
                && state != DataServerStateProto.RETIRED;
        if (!fromDown && !byOperator) {
          return false;
        }
        ServerStateRecordProto.Builder rec =
            ServerStateRecordProto.newBuilder()
                .setState(DataServerStateProto.DRAINING)
                .setSinceMs(now)
                .setDecommissioned(byOperator);
        if (fromDown) {
          rec.setDownSinceMs(tx.serverState(server).getSinceMs());
        }
        tx.setServerState(server, rec.build());
        if (byOperator) {
          LOG.info(
              "Data server {} decommissioned: draining (its shards move to other servers)", server);
        } else {
          LOG.warn(
              "Data server {} has been down for {} ms: its shards are being rebuilt on other servers",
              server,
              change.getSilentMs());
        }
        return true;
      }
      case RECOVERING -> {
        ServerStateRecordProto was = tx.serverState(server);
        if (!change.getRecommissioned() || was == null || !was.getDecommissioned()) {
          return false;
        }
        tx.setServerState(
            server,
            ServerStateRecordProto.newBuilder()
                .setState(DataServerStateProto.RECOVERING)
                .setSinceMs(now)
                .build());
        LOG.info(
            "Data server {} recommissioned: it takes files again once its moved shards are dropped",
            server);
        return true;
      }
      case RETIRED -> {
        if (state != DataServerStateProto.DRAINING || tx.hasPlacedFiles(server)) {
          return false;
        }
        ServerStateRecordProto was = tx.serverState(server);
        tx.setServerState(
            server, was.toBuilder().setState(DataServerStateProto.RETIRED).setSinceMs(now).build());
        LOG.info(
            "Data server {} is retired: every file it held has its units elsewhere{}",
            server,
            was.getDecommissioned() ? "; it may be stopped" : "");
        return true;
      }
      case UP -> {
        if (state != DataServerStateProto.RECOVERING
            || tx.hasStaleFiles(server)
            || tx.hasLeftoverFiles(server)) {
          return false;
        }
        tx.setServerState(
            server,
            ServerStateRecordProto.newBuilder()
                .setState(DataServerStateProto.UP)
                .setSinceMs(now)
                .build());
        LOG.info("Data server {} is up: recovery finished", server);
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /**
   * The server found corrupt shards of these files: each becomes stale there, so recovery rewrites
   * them.
   */
  public static void corrupt(NamespaceTxn tx, String server, List<Long> fileIds) {
    for (long fileId : fileIds) {
      InodeProto in = tx.inode(fileId);
      if (in == null
          || !in.getLayout().getServersList().contains(server)
          || in.getLayout().getParityUnits() == 0
          || in.getStaleServersList().contains(server)) {
        continue;
      }
      tx.putInode(in.toBuilder().addStaleServers(server).build());
      LOG.warn(
          "Data server {} holds a corrupt shard of file {}: marked stale there until recovery rewrites it",
          server,
          fileId);
    }
  }

  /** Recovery moved a file's units from one server to another. */
  public static boolean moved(NamespaceTxn tx, LayoutMoveProto move) {
    boolean done =
        tx.moveUnits(move.getFileId(), move.getFrom(), move.getTo(), move.getGeneration());
    if (done) {
      LOG.info(
          "File {}: units moved from {} to {} (layout generation {})",
          move.getFileId(),
          move.getFrom(),
          move.getTo(),
          move.getGeneration());
    }
    return done;
  }

  /** Recovery rebuilt the server's shards of a file. */
  public static void rebuilt(NamespaceTxn tx, RebuildDoneProto done) {
    tx.clearStale(done.getFileId(), done.getServer());
  }
}
