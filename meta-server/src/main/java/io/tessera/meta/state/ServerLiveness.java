package io.tessera.meta.state;

import io.tessera.common.proto.HeartbeatRequestProto;

/**
 * Who hears the data servers (the registry, outside the replicated state): applying a heartbeat or
 * a removal tells it.
 */
public interface ServerLiveness {
  /** Records a heartbeat; true when the server is new or moved, so its registration is logged. */
  boolean heartbeat(HeartbeatRequestProto hb);

  /** The server was removed from the cluster. */
  void forget(String server);
}
