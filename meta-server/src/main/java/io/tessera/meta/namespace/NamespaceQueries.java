package io.tessera.meta.namespace;

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

  public static MetaResponseProto getAttr(NamespaceView ns, GetAttrRequestProto req) {
    if (req.getPath().isEmpty() && req.getFileId() != 0) {
      io.tessera.common.proto.InodeProto in = ns.inode(req.getFileId());
      if (in == null) {
        throw new NamespaceException(StatusProto.NOT_FOUND, "file " + req.getFileId() + " was removed");
      }
      return Replies.inode(in);
    }
    PathResolver.Resolved r = PathResolver.resolve(ns, req.getPath());
    if (!r.exists()) {
      throw new NamespaceException(StatusProto.NOT_FOUND, "no such file or directory: " + req.getPath());
    }
    return Replies.inode(r.inode());
  }

  public static MetaResponseProto readDir(NamespaceView ns, ReadDirRequestProto req) {
    PathResolver.Resolved r = PathResolver.resolve(ns, req.getPath());
    if (!r.exists()) {
      throw new NamespaceException(StatusProto.NOT_FOUND, "no such directory: " + req.getPath());
    }
    if (!Inodes.isDirectory(r.inode())) {
      throw new NamespaceException(StatusProto.NOT_DIRECTORY, req.getPath() + " is not a directory");
    }
    int limit = req.getLimit() <= 0 ? DEFAULT_PAGE : Math.min(req.getLimit(), MAX_PAGE);
    List<NamespaceView.Entry> page = ns.children(r.inode().getId(), req.getStartAfter(), limit + 1);
    ReadDirResponseProto.Builder b = ReadDirResponseProto.newBuilder().setMore(page.size() > limit);
    for (NamespaceView.Entry e : page.subList(0, Math.min(limit, page.size()))) {
      InodeProto in = ns.inode(e.id());
      if (in != null) {
        b.addEntries(DirEntryProto.newBuilder().setName(e.name()).setInode(in));
      }
    }
    return MetaResponseProto.newBuilder().setStatus(StatusProto.OK).setEntries(b).build();
  }
}
