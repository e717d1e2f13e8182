package io.tessera.data.recovery;

import io.tessera.common.proto.DataServerStateProto;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this data server serves clients, as the meta group last said in a heartbeat answer. A
 * server that comes back after being down is RECOVERING: it answers clients' reads with
 * "unavailable" until the shards it missed are rebuilt, so readers keep decoding around it, but it
 * takes writes, so it does not fall further behind while recovery catches it up.
 */
public final class ServingState {
  private static final Logger LOG = LoggerFactory.getLogger(ServingState.class);

  private final String serverId;
  private volatile DataServerStateProto state = DataServerStateProto.DATA_SERVER_STATE_UNSPECIFIED;

  public ServingState(String serverId) {
    this.serverId = serverId;
  }

  /** Adopts the state from a heartbeat answer. */
  public void learn(DataServerStateProto next) {
    if (next == DataServerStateProto.DATA_SERVER_STATE_UNSPECIFIED || next == state) {
      return;
    }
    DataServerStateProto before = state;
    state = next;
    if (next == DataServerStateProto.RECOVERING) {
      LOG.info(
          "Data server {} is recovering: clients read around it until the shards it missed are rebuilt",
          serverId);
    } else if (next == DataServerStateProto.UP && before == DataServerStateProto.RECOVERING) {
      LOG.info("Data server {} is up again: recovery finished", serverId);
    } else if (next == DataServerStateProto.DRAINING) {
      LOG.info(
          "Data server {} is draining: it takes no new files and recovery moves its shards to other servers",
          serverId);
    } else if (next == DataServerStateProto.RETIRED) {
      LOG.info(
          "Data server {} is retired: no file needs its shards any more; it may be stopped",
          serverId);
    }
  }

  /** Whether clients' reads are answered "unavailable" (the shards it missed are being rebuilt). */
  public boolean recovering() {
    return state == DataServerStateProto.RECOVERING;
  }

  public DataServerStateProto state() {
    return state;
  }
}
