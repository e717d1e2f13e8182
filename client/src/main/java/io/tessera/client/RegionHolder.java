package io.tessera.client;

import io.tessera.common.proto.RegionHolderProto;
import io.tessera.common.proto.SharingProto;
import io.tessera.common.region.Region;
import java.time.Duration;

/**
 * Who holds part of a file at the lock home: a region lock ({@code sharing} null) or a sharing
 * intent ({@code region} null), with how long the holder's lease runs unless it renews it.
 */
public record RegionHolder(
    String client, Region region, Sharing sharing, Duration leaseLeft, boolean calledBack) {
  static RegionHolder of(RegionHolderProto p) {
    return new RegionHolder(
        p.getClient(),
        p.hasRange() ? Region.of(p.getRange()) : null,
        p.getSharing() == SharingProto.SHARING_UNDECLARED ? null : Sharing.of(p.getSharing()),
        Duration.ofMillis(p.getLeaseLeftMs()),
        p.getCalledBack());
  }
}
