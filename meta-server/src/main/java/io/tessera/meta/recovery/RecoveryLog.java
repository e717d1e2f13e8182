package io.tessera.meta.recovery;

import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.proto.ServerStateChangeProto;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Recovery's steps as replicated changes: each goes through the meta group's log and is waited for,
 * so a leader that takes over finds every step its predecessor finished.
 */
final class RecoveryLog {
  private final Function<MetaTxnProto, CompletableFuture<MetaTxnReplyProto>> log;

  RecoveryLog(Function<MetaTxnProto, CompletableFuture<MetaTxnReplyProto>> log) {
    this.log = log;
  }

  /** Logs the change stamped with the time now; fails (UNAVAILABLE) when not logged in 30 s. */
  MetaTxnReplyProto submit(MetaTxnProto.Builder txn) {
    try {
      return log.apply(txn.setTimeMs(System.currentTimeMillis()).build()).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RecoveryException(StatusProto.UNAVAILABLE, "interrupted");
    } catch (Exception e) {
      throw new RecoveryException(
          StatusProto.UNAVAILABLE, "cannot log a recovery step: " + e.getMessage());
    }
  }

  /** Logs a data server's new state. */
  void serverState(String server, DataServerStateProto state) {
    submit(
        MetaTxnProto.newBuilder()
            .setServerState(ServerStateChangeProto.newBuilder().setServer(server).setState(state)));
  }

  /** Logs a data server's new state, found after {@code silentMs} without a heartbeat. */
  void serverState(String server, DataServerStateProto state, long silentMs) {
    submit(
        MetaTxnProto.newBuilder()
            .setServerState(
                ServerStateChangeProto.newBuilder()
                    .setServer(server)
                    .setState(state)
                    .setSilentMs(silentMs)));
  }
}
