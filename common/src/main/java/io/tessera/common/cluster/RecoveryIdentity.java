package io.tessera.common.cluster;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * How a data server recognises stripe locks taken by a recovery coordinator: its client id starts
 * with a fixed prefix. A coordinator that died (a leader change, a restarted server) leaves such
 * locks behind; the next one takes them over at once instead of waiting out their lease.
 */
public final class RecoveryIdentity {
  private static final byte[] PREFIX = "tessera-recovery".getBytes(StandardCharsets.US_ASCII);

  private RecoveryIdentity() {}

  /** A fresh client id for one coordinator instance. */
  public static ByteString newClientId() {
    byte[] id = new byte[PREFIX.length + 8];
    System.arraycopy(PREFIX, 0, id, 0, PREFIX.length);
    byte[] random = new byte[8];
    new SecureRandom().nextBytes(random);
    System.arraycopy(random, 0, id, PREFIX.length, 8);
    return ByteString.copyFrom(id);
  }

  public static boolean isRecovery(ByteString clientId) {
    return clientId.size() > PREFIX.length
        && clientId.substring(0, PREFIX.length).equals(ByteString.copyFrom(PREFIX));
  }
}
