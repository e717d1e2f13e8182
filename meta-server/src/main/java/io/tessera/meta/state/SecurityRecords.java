package io.tessera.meta.state;

import io.tessera.common.proto.AccessKeyProto;
import io.tessera.common.proto.CredentialRecordProto;
import io.tessera.common.proto.RevocationProto;
import io.tessera.common.proto.RevocationsProto;
import io.tessera.meta.proto.AccessKeysProto;
import java.util.ArrayList;
import java.util.List;

/**
 * The replicated security state in {@code system}: the keys access tokens are signed with, the
 * revocation list, and the record of issued credentials ({@code credentials/<serial>}).
 */
public final class SecurityRecords {
  private static final byte[] ACCESS_KEYS = Keys.utf8("access-keys");
  private static final byte[] REVOCATIONS = Keys.utf8("revocations");
  static final String ISSUED_PREFIX = "credentials/";

  /** Records of issued credentials kept at most: the oldest are forgotten past it. */
  static final int MAX_ISSUED = 100_000;

  /** Revocations kept at most (each is a line every server checks at every handshake). */
  static final int MAX_REVOCATIONS = 10_000;

  private SecurityRecords() {}

  public static AccessKeysProto accessKeys(NamespaceStore s) {
    return accessKeys(s.systemValue(ACCESS_KEYS));
  }

  static AccessKeysProto accessKeys(NamespaceTxn tx) {
    return accessKeys(tx.systemValue(ACCESS_KEYS));
  }

  private static AccessKeysProto accessKeys(byte[] v) {
    AccessKeysProto k = NamespaceStore.parse(v, AccessKeysProto::parseFrom);
    return k == null ? AccessKeysProto.getDefaultInstance() : k;
  }

  public static RevocationsProto revocations(NamespaceStore s) {
    return revocations(s.systemValue(REVOCATIONS));
  }

  static RevocationsProto revocations(NamespaceTxn tx) {
    return revocations(tx.systemValue(REVOCATIONS));
  }

  private static RevocationsProto revocations(byte[] v) {
    RevocationsProto r = NamespaceStore.parse(v, RevocationsProto::parseFrom);
    return r == null ? RevocationsProto.getDefaultInstance() : r;
  }

  public static List<CredentialRecordProto> issued(NamespaceStore s) {
    return s.recordsUnder(ISSUED_PREFIX, CredentialRecordProto::parseFrom, "credentials");
  }

  /**
   * Adds a key (ids grow by one) and keeps the newest two: tokens live for less than a key's turn
   * (the leader refuses settings where they would not), so every token alive was signed by one of
   * them.
   */
  static void addKey(NamespaceTxn tx, AccessKeyProto key) {
    List<AccessKeyProto> keys = new ArrayList<>(accessKeys(tx).getKeysList());
    int id = keys.isEmpty() ? 1 : keys.get(keys.size() - 1).getId() + 1;
    keys.add(key.toBuilder().setId(id).build());
    while (keys.size() > 2) {
      keys.remove(0);
    }
    tx.putSystem(ACCESS_KEYS, AccessKeysProto.newBuilder().addAllKeys(keys).build().toByteArray());
  }

  /** Adds a revocation; the list's version grows. Returns the new list. */
  static RevocationsProto revoke(NamespaceTxn tx, RevocationProto r) {
    RevocationsProto.Builder b = revocations(tx).toBuilder();
    if (b.getEntriesCount() >= MAX_REVOCATIONS) {
      throw new NamespaceException(
          io.tessera.common.proto.StatusProto.NO_SPACE,
          "the revocation list holds "
              + MAX_REVOCATIONS
              + " entries: issue a new cluster CA rather than revoke more");
    }
    RevocationsProto next = b.setVersion(b.getVersion() + 1).addEntries(r).build();
    tx.putSystem(REVOCATIONS, next.toByteArray());
    return next;
  }

  static void register(NamespaceTxn tx, CredentialRecordProto rec) {
    tx.putSystem(Keys.utf8(ISSUED_PREFIX + rec.getSerial()), rec.toByteArray());
  }
}
