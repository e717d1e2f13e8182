package io.tessera.meta.state;

import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;

/** Builds meta.proto replies. */
public final class Replies {
  private Replies() {}

  public static MetaResponseProto inode(InodeProto in) {
    return MetaResponseProto.newBuilder().setStatus(StatusProto.OK).setInode(in).build();
  }

  public static MetaResponseProto error(StatusProto status, String message) {
    return MetaResponseProto.newBuilder()
        .setStatus(status)
        .setMessage(message == null ? "" : message)
        .build();
  }
}
