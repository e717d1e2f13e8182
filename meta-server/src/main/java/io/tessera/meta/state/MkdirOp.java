package io.tessera.meta.state;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/** mkdir, and mkdir -p: creates missing directories; a directory may carry a default layout. */
final class MkdirOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of(req.getMkdir().getPath());
  }

  /** A default layout is checked against the servers that take files, unless forced. */
  @Override
  public MetaRequestProto prepare(MetaRequestProto req, Leader leader) {
    MkdirRequestProto m = req.getMkdir();
    if (m.getHasDefaultLayout() && AskedLayout.partial(m.getDefaultLayout())) {
      // a kind or a stripe unit alone (fs mkdir --log, --stripe-unit): the k+m it would inherit
      LayoutPolicyProto asked = m.getDefaultLayout();
      LayoutPolicyProto inherited = leader.inheritedAt(m.getPath());
      m =
          m.toBuilder()
              .setDefaultLayout(
                  AskedLayout.completed(asked, inherited).toBuilder()
                      .setKind(asked.getKind())
                      .build())
              .build();
      req = req.toBuilder().setMkdir(m).build();
    }
    if (m.getHasDefaultLayout() && !m.getForce()) {
      leader.checkFits(m.getDefaultLayout());
    }
    return req;
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    return apply(tx, req.getMkdir(), Actor.of(req.getActor()), now);
  }

  private static MetaResponseProto apply(
      NamespaceTxn tx, MkdirRequestProto req, Actor actor, long now) {
    if (req.getHasDefaultLayout()) {
      validate(req.getDefaultLayout());
    }
    Permissions.requireChanging(actor);
    if (!req.getParents()) {
      PathResolver.Resolved r = PathResolver.resolve(tx, req.getPath());
      PathResolver.checkCreatable(r, req.getPath());
      Permissions.requireSearch(tx, actor, r);
      if (r.exists()) {
        throw new NamespaceException(StatusProto.EXISTS, req.getPath() + " already exists");
      }
      return Replies.inode(create(tx, r.parentId(), r.name(), req, actor, now));
    }
    List<String> parts = PathResolver.components(req.getPath());
    long dir = NamespaceView.ROOT_ID;
    InodeProto last = tx.inode(dir);
    StringBuilder walked = new StringBuilder();
    for (int i = 0; i < parts.size(); i++) {
      String name = parts.get(i);
      walked.append('/').append(name);
      long id = tx.child(dir, name);
      if (id == 0) {
        PathResolver.checkCreatable(
            new PathResolver.Resolved(dir, name, null, List.of()), walked.toString());
        last = create(tx, dir, name, req, actor, now);
      } else {
        // looking the name up in `last`, its parent, takes search permission there
        Permissions.require(actor, last, Permissions.SEARCH, PathResolver.pathOf(tx, last));
        last = tx.inode(id);
        if (last.getType() != FileTypeProto.DIRECTORY) {
          throw new NamespaceException(
              StatusProto.NOT_DIRECTORY, walked + " exists and is not a directory");
        }
      }
      dir = last.getId();
    }
    if (req.getHasDefaultLayout() && !last.getDefaultLayout().equals(req.getDefaultLayout())) {
      // mkdir -p with a layout on a directory that exists (the root among them) sets its default
      Permissions.requireOwner(
          actor, last, walked.length() == 0 ? "/" : walked.toString(), "set the default layout of");
      last =
          last.toBuilder()
              .setDefaultLayout(req.getDefaultLayout())
              .setHasDefaultLayout(true)
              .setCtimeMs(now)
              .build();
      tx.putInode(last);
    }
    return Replies.inode(last);
  }

  /** Refuses a default layout no file could have. */
  static void validate(LayoutPolicyProto p) {
    try {
      StripeLayout.validate(p.getStripeUnit(), p.getDataUnits(), p.getParityUnits());
    } catch (IllegalArgumentException e) {
      throw new NamespaceException(StatusProto.INVALID_ARGUMENT, e.getMessage());
    }
  }

  private static InodeProto create(
      NamespaceTxn tx, long parent, String name, MkdirRequestProto req, Actor actor, long now) {
    InodeProto dir = tx.inode(parent);
    Permissions.requireEntryChange(actor, dir, null, PathResolver.pathOf(tx, dir), name);
    InodeProto.Builder b =
        Permissions.owned(InodeProto.newBuilder(), actor, dir, req.getUid(), req.getGid())
            .setId(tx.allocateInodeId())
            .setType(FileTypeProto.DIRECTORY)
            .setMode(Permissions.newDirectoryMode(dir, req.getMode() == 0 ? 0755 : req.getMode()))
            .setMtimeMs(now)
            .setCtimeMs(now)
            .setBornMs(now)
            .setParentId(parent)
            .setName(name);
    if (req.getHasDefaultLayout()) {
      b.setDefaultLayout(req.getDefaultLayout()).setHasDefaultLayout(true);
    }
    InodeProto inode = b.build();
    tx.putInode(inode);
    tx.link(parent, name, inode.getId());
    Inodes.touch(tx, parent, now);
    return inode;
  }
}
