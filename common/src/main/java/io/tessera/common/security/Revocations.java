package io.tessera.common.security;

import io.tessera.common.proto.RevocationProto;
import io.tessera.common.proto.RevocationsProto;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The revocation list a server holds: refuses revoked certificates in the TLS handshake, and tells
 * its listeners (the ports) when the list grew so they close revoked callers' open connections. The
 * meta group replicates the list; other servers fetch it when its version moves.
 */
public final class Revocations {
  private volatile RevocationsProto current = RevocationsProto.getDefaultInstance();
  private final List<Consumer<Revocations>> listeners = new CopyOnWriteArrayList<>();

  /** The version held now (0: none heard yet). */
  public long version() {
    return current.getVersion();
  }

  public RevocationsProto list() {
    return current;
  }

  /** Adopts a newer list (an older or equal version is ignored) and tells the listeners. */
  public void update(RevocationsProto newer) {
    synchronized (this) {
      if (newer.getVersion() <= current.getVersion()) {
        return;
      }
      current = newer;
    }
    listeners.forEach(l -> l.accept(this));
  }

  /** Called after each change of the list. */
  public void onChange(Consumer<Revocations> listener) {
    listeners.add(listener);
  }

  /** The revocation that refuses this identity, or null. */
  public RevocationProto revoking(Identity id) {
    return revoking(current, id);
  }

  public static RevocationProto revoking(RevocationsProto list, Identity id) {
    for (RevocationProto r : list.getEntriesList()) {
      boolean bySerial = !r.getSerial().isEmpty() && r.getSerial().equalsIgnoreCase(id.serial());
      boolean byName =
          !r.getName().isEmpty()
              && r.getName().equals(id.name())
              && r.getServer() == id.isServer()
              && id.issuedMs() < r.getIssuedBeforeMs();
      if (bySerial || byName) {
        return r;
      }
    }
    return null;
  }

  public boolean revokes(Identity id) {
    return revoking(id) != null;
  }
}
