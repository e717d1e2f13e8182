package io.tessera.meta.state;

import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;

/** Small inode helpers shared by the operations. */
final class Inodes {
  private Inodes() {}

  /** Sets a directory's mtime after its entries changed. */
  static void touch(NamespaceTxn tx, long dirId, long now) {
    InodeProto dir = tx.inode(dirId);
    if (dir != null) {
      tx.putInode(dir.toBuilder().setMtimeMs(now).build());
    }
  }

  static boolean isDirectory(InodeProto in) {
    return in.getType() == FileTypeProto.DIRECTORY;
  }

  /** A regular file whose layout has no parity: losing one of its servers loses bytes. */
  static boolean withoutParity(InodeProto in) {
    return in.getType() == FileTypeProto.REGULAR
        && in.hasLayout()
        && in.getLayout().getParityUnits() == 0;
  }

  /** Removes a regular file's inode and schedules its shards for deletion. */
  static void dropFile(NamespaceTxn tx, InodeProto file) {
    if (LogParts.isLog(file)) {
      LogParts.dropAll(tx, file);
    }
    tx.deleteInode(file.getId());
    if (file.hasLayout() && file.getLayout().getServersCount() > 0) {
      tx.reclaim(file.getId(), file.getLayout(), file.getSize() > 0);
    }
  }
}
