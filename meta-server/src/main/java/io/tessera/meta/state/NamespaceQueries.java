package io.tessera.meta.state;

import io.tessera.common.proto.DirEntryProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.ReadDirRequestProto;
import io.tessera.common.proto.ReadDirResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/** Read-only namespace requests: getattr and paged readdir. */
public final class NamespaceQueries {
  public static final int DEFAULT_PAGE = 1000;
  public static final int MAX_PAGE = 10_000;

  private NamespaceQueries() {}

  /**
   * A file's attributes: by path, to an actor that may search every directory on the way; by id (an
   * open handle, an NFS file handle), to anyone, as POSIX lets a process holding a descriptor fstat
   * it.
   */
  public static MetaResponseProto getAttr(NamespaceView ns, GetAttrRequestProto req, Actor actor) {
    if (req.getPath().isEmpty() && req.getFileId() != 0) {
      InodeProto in = ns.inode(req.getFileId());
      if (in == null) {
        throw new NamespaceException(
            StatusProto.NOT_FOUND, "file " + req.getFileId() + " was removed");
      }
      return Replies.inode(in).toBuilder()
          .setIndex(in.getChangedIndex())
          .setPath(PathResolver.pathOf(ns, in))
          .build();
    }
    PathResolver.Resolved r = PathResolver.resolve(ns, req.getPath());
    Permissions.requireSearch(ns, actor, r);
    if (!r.exists()) {
      throw new NamespaceException(
          StatusProto.NOT_FOUND, "no such file or directory: " + req.getPath());
    }
    NewestChange newest = NewestChange.ofPath(ns, r);
    return Replies.inode(r.inode()).toBuilder().setIndex(newest.index()).build();
  }

  /** A page of a directory's entries, to an actor that may search the path and read it. */
  public static MetaResponseProto readDir(NamespaceView ns, ReadDirRequestProto req, Actor actor) {
    PathResolver.Resolved r = PathResolver.resolve(ns, req.getPath());
    Permissions.requireSearch(ns, actor, r);
    if (!r.exists()) {
      throw new NamespaceException(StatusProto.NOT_FOUND, "no such directory: " + req.getPath());
    }
    if (!Inodes.isDirectory(r.inode())) {
      throw new NamespaceException(
          StatusProto.NOT_DIRECTORY, req.getPath() + " is not a directory");
    }
    if (!actor.readOnly()) {
      Permissions.require(actor, r.inode(), Permissions.READ | Permissions.SEARCH, req.getPath());
    }
    int limit = req.getLimit() <= 0 ? DEFAULT_PAGE : Math.min(req.getLimit(), MAX_PAGE);
    List<NamespaceView.Entry> page = ns.children(r.inode().getId(), req.getStartAfter(), limit + 1);
    ReadDirResponseProto.Builder b = ReadDirResponseProto.newBuilder().setMore(page.size() > limit);
    NewestChange newest = NewestChange.ofPath(ns, r);
    for (NamespaceView.Entry e : page.subList(0, Math.min(limit, page.size()))) {
      InodeProto in = ns.inode(e.id());
      if (in != null) {
        b.addEntries(DirEntryProto.newBuilder().setName(e.name()).setInode(in));
        newest.add(in);
      }
    }
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setEntries(b)
        .setIndex(newest.index())
        .build();
  }

  /**
   * The newest change among the inodes an answer was read from: a path's directories (a change of
   * their entries rewrites them) and what it names. 0 when one of them records no change position
   * (written before inodes recorded it): the replica's applied index stands in.
   */
  private static final class NewestChange {
    private long index;
    private boolean unknown;

    static NewestChange ofPath(NamespaceView ns, PathResolver.Resolved r) {
      NewestChange n = new NewestChange();
      for (long dir : r.ancestors()) {
        n.add(ns.inode(dir));
      }
      n.add(r.inode());
      return n;
    }

    void add(InodeProto in) {
      if (in == null || in.getChangedIndex() == 0) {
        unknown = true;
      } else {
        index = Math.max(index, in.getChangedIndex());
      }
    }

    long index() {
      return unknown ? 0 : index;
    }
  }
}
