package io.tessera.meta.state;

import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/**
 * Changes mode, owner, group, size (set, or extend-only for writers), mtime, and marks servers
 * stale for the file.
 */
final class SetAttrOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of(req.getSetAttr().getPath());
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    return apply(tx, req.getSetAttr(), Actor.of(req.getActor()), now);
  }

  private static MetaResponseProto apply(
      NamespaceTxn tx, SetAttrRequestProto req, Actor actor, long now) {
    InodeProto in;
    if (req.getPath().isEmpty()) {
      // an open handle names its file by id, so renames while it is open do not matter
      in = tx.inode(req.getFileId());
      if (in == null) {
        throw new NamespaceException(StatusProto.NOT_FOUND, "the open file was removed");
      }
    } else {
      PathResolver.Resolved r = PathResolver.resolve(tx, req.getPath());
      Permissions.requireSearch(tx, actor, r);
      if (!r.exists()) {
        throw new NamespaceException(StatusProto.NOT_FOUND, "no such file: " + req.getPath());
      }
      in = r.inode();
    }
    if (req.getFileId() != 0 && req.getFileId() != in.getId()) {
      throw new NamespaceException(
          StatusProto.NOT_FOUND, req.getPath() + " was removed or replaced while it was open");
    }
    if (req.hasWritesEpoch() && req.getWritesEpoch() < tx.epoch()) {
      // the snapshot at writes_epoch holds the write's data units (stamped with it) but its
      // namespace was captured before this record: the writer must write again at the new epoch
      throw new NamespaceException(
          StatusProto.SNAPSHOT_PASSED,
          "a snapshot at epoch "
              + req.getWritesEpoch()
              + " was committed while the write to file "
              + in.getId()
              + " held its locks; write again at epoch "
              + tx.epoch());
    }
    requirePermitted(actor, in, req);
    InodeProto.Builder b = in.toBuilder().setCtimeMs(now);
    if (req.getSetSize()) {
      if (Inodes.isDirectory(in)) {
        throw new NamespaceException(StatusProto.IS_DIRECTORY, req.getPath() + " is a directory");
      }
      long size = req.getExtendOnly() ? Math.max(in.getSize(), req.getSize()) : req.getSize();
      if (size < 0) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT,
            "size " + Long.toUnsignedString(req.getSize()) + " is too large");
      }
      if (LogParts.isLog(in) && !req.getExtendOnly()) {
        b = LogParts.cut(tx, in, size).setCtimeMs(now);
      }
      b.setSize(size).setMtimeMs(now);
    }
    if (req.getSetMode()) {
      b.setMode(req.getMode() & 07777);
    }
    if (req.hasUid()) {
      b.setUid(req.getUid());
    }
    if (req.hasGid()) {
      b.setGid(req.getGid());
    }
    if (req.getSetMtime()) {
      b.setMtimeMs(req.getMtimeMs());
    }
    if (req.getPartialLeaseMs() != 0 && in.getPartialUntilMs() != 0) {
      b.setPartialUntilMs(PartialFiles.until(now, req.getPartialLeaseMs()));
    }
    for (String server : req.getAddStaleServersList()) {
      if (!in.getLayout().getServersList().contains(server)) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT,
            "data server " + server + " holds no shard of file " + in.getId());
      }
      if (!b.getStaleServersList().contains(server)) {
        b.addStaleServers(server);
      }
    }
    InodeProto out = b.build();
    tx.putInode(out);
    if (LogParts.isLog(out) && (req.getSetMode() || req.hasUid() || req.hasGid())) {
      LogParts.follow(tx, out);
    }
    return Replies.inode(out);
  }

  /**
   * Mode: the owner; owner: superusers; group: the owner, to one of its groups; size, stale servers
   * and a partial copy's lease (what writers record): write permission; mtime: the owner or a
   * writer.
   */
  private static void requirePermitted(Actor actor, InodeProto in, SetAttrRequestProto req) {
    String path = req.getPath().isEmpty() ? "file " + in.getId() : req.getPath();
    Permissions.requireChanging(actor);
    if (req.getSetMode()) {
      Permissions.requireOwner(actor, in, path, "change the mode of");
    }
    if (req.hasUid() || req.hasGid()) {
      Permissions.requireOwnerChange(
          actor, in, req.hasUid() ? req.getUid() : null, req.hasGid() ? req.getGid() : null, path);
    }
    // what a writer records of an open file: its owner may, whatever the mode says now (a file
    // created read-only is written by its creator, as POSIX and NFS servers allow)
    boolean records =
        (req.getSetSize() && req.getExtendOnly())
            || req.getAddStaleServersCount() > 0
            || req.getPartialLeaseMs() != 0;
    if (req.getSetSize() && !req.getExtendOnly()) {
      Permissions.require(actor, in, Permissions.WRITE, path);
    } else if (records && actor.uid() != in.getUid()) {
      Permissions.require(actor, in, Permissions.WRITE, path);
    }
    if (req.getSetMtime()
        && !actor.superuser()
        && actor.uid() != in.getUid()
        && !Permissions.allows(actor, in, Permissions.WRITE)) {
      Permissions.requireOwner(actor, in, path, "set the modification time of");
    }
  }
}
