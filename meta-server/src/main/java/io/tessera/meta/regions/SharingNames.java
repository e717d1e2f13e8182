package io.tessera.meta.regions;

import io.tessera.common.proto.SharingProto;
import java.util.Locale;

/** Sharing intents as users read them in refusals and listings. */
final class SharingNames {
  private SharingNames() {}

  static String of(SharingProto s) {
    return s.name().replace("SHARING_", "").replace('_', ' ').toLowerCase(Locale.ROOT);
  }
}
