package io.tessera.meta.state;

import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RenameRequestProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/**
 * Atomic rename with POSIX rules: a file may replace a file, a directory may replace an empty
 * directory, nothing moves into its own subtree, and renaming onto itself does nothing. With {@code
 * no_replace} an existing target is refused instead (as Linux's RENAME_NOREPLACE).
 */
final class RenameOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of(req.getRename().getSource(), req.getRename().getTarget());
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    return apply(tx, req.getRename(), Actor.of(req.getActor()), now);
  }

  private static MetaResponseProto apply(
      NamespaceTxn tx, RenameRequestProto req, Actor actor, long now) {
    PathResolver.Resolved src = PathResolver.resolve(tx, req.getSource());
    if (src.isRoot()) {
      throw new NamespaceException(StatusProto.INVALID_ARGUMENT, "/ cannot be renamed");
    }
    Permissions.requireSearch(tx, actor, src);
    if (!src.exists()) {
      throw new NamespaceException(
          StatusProto.NOT_FOUND, "no such file or directory: " + req.getSource());
    }
    PathResolver.Resolved dst = PathResolver.resolve(tx, req.getTarget());
    PathResolver.checkCreatable(dst, req.getTarget());
    Permissions.requireSearch(tx, actor, dst);
    InodeProto moving = src.inode();
    requireMayMove(tx, actor, src, dst, req);
    if (dst.ancestors().contains(moving.getId())) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "cannot move " + req.getSource() + " into itself (" + req.getTarget() + ")");
    }
    if (dst.exists()) {
      InodeProto victim = dst.inode();
      if (victim.getId() == moving.getId()) {
        return Replies.inode(moving);
      }
      if (req.getNoReplace()) {
        throw new NamespaceException(StatusProto.EXISTS, req.getTarget() + " already exists");
      }
      if (Inodes.isDirectory(moving) && !Inodes.isDirectory(victim)) {
        throw new NamespaceException(
            StatusProto.NOT_DIRECTORY,
            "cannot replace file " + req.getTarget() + " with directory " + req.getSource());
      }
      if (!Inodes.isDirectory(moving) && Inodes.isDirectory(victim)) {
        throw new NamespaceException(
            StatusProto.IS_DIRECTORY,
            "cannot replace directory " + req.getTarget() + " with file " + req.getSource());
      }
      if (Inodes.isDirectory(victim)) {
        if (!tx.children(victim.getId(), "", 1).isEmpty()) {
          throw new NamespaceException(
              StatusProto.NOT_EMPTY, req.getTarget() + " is a directory that is not empty");
        }
        tx.deleteInode(victim.getId());
      } else {
        Inodes.dropFile(tx, victim);
      }
    }
    tx.unlink(src.parentId(), src.name());
    tx.link(dst.parentId(), dst.name(), moving.getId());
    InodeProto moved =
        PartialFiles.completed(tx, moving).toBuilder()
            .setCtimeMs(now)
            .setParentId(dst.parentId())
            .setName(dst.name())
            .build();
    tx.putInode(moved);
    Inodes.touch(tx, src.parentId(), now);
    if (dst.parentId() != src.parentId()) {
      Inodes.touch(tx, dst.parentId(), now);
    }
    return Replies.inode(moved);
  }

  /**
   * Taking the entry out of its directory and putting it (over what is there) into the other's:
   * write and search on both, the sticky bit on each, and write on a directory that changes parent
   * (its ".." changes).
   */
  private static void requireMayMove(
      NamespaceTxn tx,
      Actor actor,
      PathResolver.Resolved src,
      PathResolver.Resolved dst,
      RenameRequestProto req) {
    InodeProto from = tx.inode(src.parentId());
    InodeProto to = tx.inode(dst.parentId());
    Permissions.requireEntryChange(
        actor, from, src.inode(), PathResolver.pathOf(tx, from), req.getSource());
    Permissions.requireEntryChange(
        actor, to, dst.inode(), PathResolver.pathOf(tx, to), req.getTarget());
    if (Inodes.isDirectory(src.inode()) && src.parentId() != dst.parentId()) {
      Permissions.require(actor, src.inode(), Permissions.WRITE, req.getSource());
    }
  }
}
