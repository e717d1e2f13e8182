package io.tessera.common.rpc;

import io.netty.channel.Channel;
import io.tessera.common.proto.RevocationProto;
import io.tessera.common.security.Identity;
import io.tessera.common.security.Revocations;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A port's authenticated connections and who is on each: when the revocation list grows, the
 * connections of the identities it now revokes are closed, so a revoked user loses the connections
 * it holds open, not only the ones it would open next.
 */
final class ConnectionRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionRegistry.class);

  private final String port;
  private final Revocations revocations;
  private final Map<Channel, Identity> open = new ConcurrentHashMap<>();

  ConnectionRegistry(String port, Revocations revocations) {
    this.port = port;
    this.revocations = revocations;
    revocations.onChange(this::closeRevoked);
  }

  /** Whether the list revokes this identity now. */
  boolean revoked(Identity id) {
    return revocations.revokes(id);
  }

  void add(Channel ch, Identity id) {
    open.put(ch, id);
    ch.closeFuture().addListener(f -> open.remove(ch));
  }

  /** Connections open now. */
  int size() {
    return open.size();
  }

  private void closeRevoked(Revocations revocations) {
    open.forEach(
        (ch, id) -> {
          RevocationProto r = revocations.revoking(id);
          if (r != null) {
            LOG.warn(
                "{}: closing the connection of {} from {}: its certificate was revoked",
                port,
                id.describe(),
                ch.remoteAddress());
            ch.close();
          }
        });
  }
}
