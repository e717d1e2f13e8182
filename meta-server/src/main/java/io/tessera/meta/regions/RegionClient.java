package io.tessera.meta.regions;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.RegionRangeProto;
import io.tessera.common.proto.SharingProto;
import io.tessera.common.region.HeldRegions;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One client's state at the home: its lease, the regions and intents it holds per file, the regions
 * called back from it, and its outstanding renew (answered when a call-back comes).
 */
final class RegionClient {
  final ByteString id;
  String description;
  long expiresAtNanos;
  final Map<Long, HeldRegions> held = new HashMap<>();
  final Map<Long, EnumMap<SharingProto, Integer>> intents = new HashMap<>();

  /** Regions asked back, with whether the client has been told. */
  final Map<RegionRangeProto, Boolean> recalls = new LinkedHashMap<>();

  RegionTable.ParkedRenew parked;

  RegionClient(ByteString id, String description) {
    this.id = id;
    this.description = description;
  }

  int regionCount() {
    return held.values().stream().mapToInt(HeldRegions::size).sum();
  }

  boolean holdsAnything() {
    return !held.isEmpty() || !intents.isEmpty();
  }
}
