package io.tessera.meta.state;

import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RemoveRequestProto;
import io.tessera.common.proto.StatusProto;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Removes a file or an empty directory, a whole tree when recursive; rmdir when only a directory
 * will do. Shards of removed files are deleted from data servers afterwards.
 */
final class RemoveOp implements NamespaceOp {
  private static final int PAGE = 1024;

  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of(req.getRemove().getPath());
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    return apply(tx, req.getRemove(), Actor.of(req.getActor()), now);
  }

  private static MetaResponseProto apply(
      NamespaceTxn tx, RemoveRequestProto req, Actor actor, long now) {
    PathResolver.Resolved r = PathResolver.resolve(tx, req.getPath());
    if (r.isRoot()) {
      throw new NamespaceException(StatusProto.INVALID_ARGUMENT, "/ cannot be removed");
    }
    Permissions.requireSearch(tx, actor, r);
    if (!r.exists()) {
      throw new NamespaceException(
          StatusProto.NOT_FOUND, "no such file or directory: " + req.getPath());
    }
    InodeProto target = r.inode();
    InodeProto parent = tx.inode(r.parentId());
    Permissions.requireEntryChange(
        actor, parent, target, PathResolver.pathOf(tx, parent), req.getPath());
    if (Inodes.isDirectory(target)) {
      boolean empty = tx.children(target.getId(), "", 1).isEmpty();
      if (!empty && !req.getRecursive()) {
        throw new NamespaceException(
            StatusProto.NOT_EMPTY,
            req.getPath()
                + " is a directory that is not empty (remove recursively to delete its contents)");
      }
      removeTree(tx, target.getId(), actor, req.getPath());
    } else {
      if (req.getDirectory()) {
        throw new NamespaceException(
            StatusProto.NOT_DIRECTORY, req.getPath() + " is not a directory");
      }
      Inodes.dropFile(tx, target);
    }
    tx.unlink(r.parentId(), r.name());
    Inodes.touch(tx, r.parentId(), now);
    return Replies.inode(target);
  }

  /**
   * Removes a directory's whole tree. Each directory emptied takes the permissions removing its
   * entries one by one would ({@code rm -r}): a refusal anywhere undoes the whole remove.
   */
  private static void removeTree(NamespaceTxn tx, long rootId, Actor actor, String rootPath) {
    Deque<Long> dirs = new ArrayDeque<>();
    Deque<String> paths = new ArrayDeque<>();
    dirs.push(rootId);
    paths.push(rootPath);
    while (!dirs.isEmpty()) {
      long dir = dirs.pop();
      String dirPath = paths.pop();
      InodeProto dirInode = tx.inode(dir);
      List<NamespaceView.Entry> page;
      while (!(page = tx.children(dir, "", PAGE)).isEmpty()) {
        for (NamespaceView.Entry e : page) {
          InodeProto child = tx.inode(e.id());
          if (dirInode != null && !actor.superuser()) {
            Permissions.requireEntryChange(
                actor, dirInode, child, dirPath, dirPath + "/" + e.name());
          }
          tx.unlink(dir, e.name());
          if (child == null) {
            continue;
          }
          if (Inodes.isDirectory(child)) {
            dirs.push(child.getId());
            paths.push(dirPath + "/" + e.name());
          } else {
            Inodes.dropFile(tx, child);
          }
        }
      }
      tx.deleteInode(dir);
    }
  }
}
