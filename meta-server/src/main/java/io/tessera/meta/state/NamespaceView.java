package io.tessera.meta.state;

import io.tessera.common.proto.InodeProto;
import java.util.List;

/** Read access to the namespace: the committed store, or a transaction seeing its own writes. */
public interface NamespaceView {
  long ROOT_ID = 1;

  /** The inode with this id, or null. */
  InodeProto inode(long id);

  /** The id of the child called {@code name} in directory {@code parentId}, or 0. */
  long child(long parentId, String name);

  /**
   * Up to {@code limit} children of a directory, by name, after {@code startAfter} (may be empty).
   */
  List<Entry> children(long parentId, String startAfter, int limit);

  /** A directory entry. */
  record Entry(String name, long id) {}
}
