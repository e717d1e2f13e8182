package io.tessera.client;

import io.tessera.common.proto.SharingProto;

/**
 * How a process will share a file with processes on other machines, declared when it opens the file
 * ({@link OpenOptions#sharing}) and held until it closes it. Each intent admits only openers that
 * declared the same one; a conflicting open is refused at once, naming who holds what. Opens that
 * declare nothing are not checked (intents and region locks are advisory, like fcntl locks).
 */
public enum Sharing {
  /** Nobody else opens the file with an intent while this open lasts. */
  EXCLUSIVE(SharingProto.SHARING_EXCLUSIVE),
  /** Every opener only reads: the file does not change while they share it. */
  SHARED_READERS(SharingProto.SHARING_SHARED_READERS),
  /**
   * Every opener writes only inside regions it has locked ({@link TesseraFile#lock}), so writers of
   * different regions run in parallel at full speed.
   */
  DISJOINT_WRITERS(SharingProto.SHARING_DISJOINT_WRITERS),
  /** No promise about reads or writes; shares only with openers that promise nothing either. */
  ANY(SharingProto.SHARING_ANY);

  final SharingProto proto;

  Sharing(SharingProto proto) {
    this.proto = proto;
  }

  static Sharing of(SharingProto p) {
    for (Sharing s : values()) {
      if (s.proto == p) {
        return s;
      }
    }
    throw new IllegalArgumentException("no sharing intent " + p);
  }

  /** As listings show it: "disjoint writers". */
  @Override
  public String toString() {
    return name().replace('_', ' ').toLowerCase(java.util.Locale.ROOT);
  }
}
