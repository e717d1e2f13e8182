package io.tessera.meta.state;

import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/**
 * Creates a regular file with the layout and placement the leader resolved before logging the
 * request (the policy from the request, else the parent's default, else the cluster's). A log file
 * gets no servers: its writers' logs are placed as they open.
 */
final class CreateOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of(req.getCreate().getPath());
  }

  /** The leader resolves the layout and chooses the servers; replicas apply what it chose. */
  @Override
  public MetaRequestProto prepare(MetaRequestProto req, Leader leader) {
    return req.toBuilder().setCreate(leader.placed(req.getCreate())).build();
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    return apply(tx, req.getCreate(), Actor.of(req.getActor()), now);
  }

  private static MetaResponseProto apply(
      NamespaceTxn tx, CreateRequestProto req, Actor actor, long now) {
    PathResolver.Resolved r = PathResolver.resolve(tx, req.getPath());
    PathResolver.checkCreatable(r, req.getPath());
    Permissions.requireSearch(tx, actor, r);
    InodeProto parent = tx.inode(r.parentId());
    Permissions.requireEntryChange(
        actor, parent, r.inode(), PathResolver.pathOf(tx, parent), req.getPath());
    if (r.exists()) {
      if (Inodes.isDirectory(r.inode())) {
        throw new NamespaceException(StatusProto.IS_DIRECTORY, req.getPath() + " is a directory");
      }
      if (!req.getOverwrite()) {
        throw new NamespaceException(StatusProto.EXISTS, req.getPath() + " already exists");
      }
      Inodes.dropFile(tx, r.inode());
    }
    var p = req.getLayout();
    boolean log = p.getKind() == LayoutKindProto.LOG;
    if ((!log && req.getPlacementCount() != p.getDataUnits() + p.getParityUnits())
        || p.getDataUnits() < 1) {
      throw new NamespaceException(
          StatusProto.INTERNAL,
          "create of " + req.getPath() + " reached the log without a placement for its layout");
    }
    LayoutProto layout =
        LayoutProto.newBuilder()
            .setKind(p.getKind())
            .setStripeUnit(p.getStripeUnit())
            .setDataUnits(p.getDataUnits())
            .setParityUnits(p.getParityUnits())
            .addAllServers(req.getPlacementList())
            .build();
    InodeProto inode =
        Permissions.owned(InodeProto.newBuilder(), actor, parent, req.getUid(), req.getGid())
            .setId(tx.allocateInodeId())
            .setType(FileTypeProto.REGULAR)
            .setMode(req.getMode() == 0 ? 0644 : req.getMode() & 07777)
            .setMtimeMs(now)
            .setCtimeMs(now)
            .setBornMs(now)
            .setParentId(r.parentId())
            .setName(r.name())
            .setLayout(layout)
            .addAllStaleServers(req.getStaleFromStartList())
            .setPartialUntilMs(
                req.getPartialLeaseMs() == 0 ? 0 : PartialFiles.until(now, req.getPartialLeaseMs()))
            .build();
    tx.putInode(inode);
    tx.link(r.parentId(), r.name(), inode.getId());
    if (inode.getPartialUntilMs() != 0) {
      tx.indexPartial(inode.getId(), r.parentId(), r.name());
    }
    Inodes.touch(tx, r.parentId(), now);
    return Replies.inode(inode);
  }
}
