package io.tessera.common.cluster;

import io.tessera.common.proto.MetaRequestProto;

/**
 * Which meta requests a replica other than the leader may answer from its own state while no leader
 * can be reached (meta.proto's {@code follower_read_ok}): lookups and listings, never changes.
 * Clients ask for it and replicas grant it by the same rule.
 */
public final class FollowerReads {
  private FollowerReads() {}

  public static boolean answerable(MetaRequestProto req) {
    return req.getOpCase() == MetaRequestProto.OpCase.GET_ATTR
        || req.getOpCase() == MetaRequestProto.OpCase.READ_DIR;
  }
}
