package io.tessera.common.security;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.AccessKeyProto;
import io.tessera.common.proto.AccessTokenProto;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs and checks access tokens: HMAC-SHA256 of what a token grants under a key the meta group
 * rolls. The meta group signs after its permission check; data servers check without asking anyone,
 * holding the keys the meta group sent them.
 */
public final class AccessTokens {
  /** Read a file's shards. */
  public static final int READ = 1;

  /** Write, lock and truncate a file's shards. */
  public static final int WRITE = 2;

  private static final String HMAC = "HmacSHA256";

  /** The keys by id; replaced whole. */
  private volatile Map<Integer, byte[]> keys = Map.of();

  private volatile int newest;

  private final CompletableFuture<Void> firstKeys = new CompletableFuture<>();

  /** Why a token was refused; null when it was accepted. */
  public enum Refusal {
    /** No token for the file, a forged one, or one for less than the request needs. */
    INVALID,
    /** It ran out, or its key is gone: the holder may ask for a new one. */
    EXPIRED
  }

  /** Adopts a key set (the newest last), as the meta group sent it. */
  public void setKeys(List<AccessKeyProto> all) {
    Map<Integer, byte[]> m = new HashMap<>();
    int last = 0;
    for (AccessKeyProto k : all) {
      m.put(k.getId(), k.getSecret().toByteArray());
      last = k.getId();
    }
    keys = Map.copyOf(m);
    newest = last;
    if (last != 0) {
      firstKeys.complete(null);
    }
  }

  /** Completes once keys are held (a server that just started learns them at its first beat). */
  public CompletableFuture<Void> keysHeld() {
    return firstKeys;
  }

  /** The id of the newest key held (0: none yet). */
  public int newestKey() {
    return newest;
  }

  /**
   * A token for {@code fileId} with {@code rights}, valid until {@code expiresMs}; {@code maxEpoch}
   * non-zero limits it to reads at snapshot epochs below it. Null when no key is held yet.
   */
  public AccessTokenProto sign(long fileId, int rights, long expiresMs, long maxEpoch) {
    int id = newest;
    byte[] key = keys.get(id);
    if (key == null) {
      return null;
    }
    AccessTokenProto unsigned =
        AccessTokenProto.newBuilder()
            .setFileId(fileId)
            .setRights(rights)
            .setExpiresMs(expiresMs)
            .setMaxEpoch(maxEpoch)
            .setKeyId(id)
            .build();
    return unsigned.toBuilder().setMac(ByteString.copyFrom(mac(key, unsigned))).build();
  }

  /**
   * Checks that {@code token} lets its bearer do {@code rights} to {@code fileId} now; {@code
   * snapshotEpoch} is the epoch a read is at (-1 for the live file, or for a change).
   */
  public Refusal check(
      AccessTokenProto token, long fileId, int rights, long snapshotEpoch, long nowMs) {
    if (token == null || token.getFileId() != fileId) {
      return Refusal.INVALID;
    }
    byte[] key = keys.get(token.getKeyId());
    if (key == null) {
      return token.getKeyId() < newest ? Refusal.EXPIRED : Refusal.INVALID;
    }
    AccessTokenProto unsigned = token.toBuilder().clearMac().build();
    if (!MessageDigest.isEqual(mac(key, unsigned), token.getMac().toByteArray())) {
      return Refusal.INVALID;
    }
    if ((token.getRights() & rights) != rights) {
      return Refusal.INVALID;
    }
    if (token.getMaxEpoch() != 0 && (snapshotEpoch < 0 || snapshotEpoch >= token.getMaxEpoch())) {
      return Refusal.INVALID;
    }
    return token.getExpiresMs() < nowMs ? Refusal.EXPIRED : null;
  }

  private static byte[] mac(byte[] key, AccessTokenProto t) {
    ByteBuffer fields =
        ByteBuffer.allocate(8 + 4 + 8 + 8 + 4)
            .putLong(t.getFileId())
            .putInt(t.getRights())
            .putLong(t.getExpiresMs())
            .putLong(t.getMaxEpoch())
            .putInt(t.getKeyId());
    try {
      Mac m = Mac.getInstance(HMAC);
      m.init(new SecretKeySpec(key, HMAC));
      return m.doFinal(fields.array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no " + HMAC, e);
    }
  }
}
