package io.tessera.meta.state;

import io.tessera.common.layout.LogRecord;
import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.LogChangeRequestProto;
import io.tessera.common.proto.LogCommitProto;
import io.tessera.common.proto.LogFlattenProto;
import io.tessera.common.proto.LogOpenProto;
import io.tessera.common.proto.LogStateProto;
import io.tessera.common.proto.LogWriterProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;
import java.util.Map;

/**
 * A log file's writers: a writer opens (its data and index logs are created), commits what it
 * appended (one entry per sync or close, never one per write), and the flattened index replaces the
 * old one. Readers see what is committed.
 */
final class LogChangeOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of(); // by file id: an open handle's
  }

  /** The leader places a new writer's logs with the log file's k+m. */
  @Override
  public MetaRequestProto prepare(MetaRequestProto req, Leader leader) {
    LogChangeRequestProto c = req.getLogChange();
    if (!c.hasOpen()) {
      return req;
    }
    LogOpenProto open = c.getOpen();
    LayoutPolicyProto policy =
        open.getPolicy().toBuilder().setKind(LayoutKindProto.STRIPED).build();
    CreateRequestProto striped =
        CreateRequestProto.newBuilder().setLayout(policy).setHasLayout(true).build();
    LogOpenProto.Builder placed = open.toBuilder().clearDataPlacement().clearIndexPlacement();
    if (!open.getFlattener()) {
      placed.addAllDataPlacement(leader.placed(striped).getPlacementList());
    }
    placed.addAllIndexPlacement(leader.placed(striped).getPlacementList());
    return req.toBuilder().setLogChange(c.toBuilder().setOpen(placed)).build();
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    LogChangeRequestProto c = req.getLogChange();
    Actor actor = Actor.of(req.getActor());
    InodeProto log = tx.inode(c.getFileId());
    if (log == null) {
      throw new NamespaceException(StatusProto.NOT_FOUND, "the open file was removed");
    }
    if (!LogParts.isLog(log)) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT, "file " + log.getId() + " is not a log file");
    }
    Permissions.requireChanging(actor);
    if (actor.uid() != log.getUid()) {
      Permissions.require(actor, log, Permissions.WRITE, "file " + log.getId());
    }
    return switch (c.getChangeCase()) {
      case OPEN -> open(tx, log, c.getOpen(), now);
      case COMMIT -> commit(tx, log, c.getCommit(), now);
      case FLATTEN -> flatten(tx, log, c.getFlatten(), now);
      default ->
          throw new NamespaceException(StatusProto.INVALID_ARGUMENT, "log change names no change");
    };
  }

  private static MetaResponseProto open(
      NamespaceTxn tx, InodeProto log, LogOpenProto open, long now) {
    LayoutPolicyProto p = open.getPolicy();
    if (p.getDataUnits() != log.getLayout().getDataUnits()
        || p.getParityUnits() != log.getLayout().getParityUnits()
        || p.getStripeUnit() != log.getLayout().getStripeUnit()) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "a writer of file " + log.getId() + " asked for logs of another layout than the file's");
    }
    LogStateProto s = log.getLog();
    int writer = s.getNextWriter() + 1;
    String prefix = (open.getFlattener() ? "f" : "w") + writer;
    long dataId =
        open.getFlattener()
            ? 0
            : LogParts.create(tx, log, prefix + ".data", open.getDataPlacementList(), now).getId();
    long indexId =
        LogParts.create(tx, log, prefix + ".index", open.getIndexPlacementList(), now).getId();
    LogWriterProto w =
        LogWriterProto.newBuilder()
            .setWriter(writer)
            .setDataFileId(dataId)
            .setIndexFileId(indexId)
            .setMtimeMs(now)
            .setOpen(true)
            .build();
    InodeProto out =
        log.toBuilder().setLog(s.toBuilder().setNextWriter(writer).addWriters(w)).build();
    tx.putInode(out);
    return Replies.inode(out).toBuilder().setLogWriter(w).build();
  }

  private static MetaResponseProto commit(
      NamespaceTxn tx, InodeProto log, LogCommitProto c, long now) {
    LogStateProto.Builder s = log.getLog().toBuilder();
    int i = writerAt(s, c.getWriter(), log);
    LogWriterProto w = s.getWriters(i);
    if (c.getIndexLength() % LogRecord.BYTES != 0) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "index length " + c.getIndexLength() + " is not a whole number of records");
    }
    LogWriterProto committed =
        w.toBuilder()
            .setDataLength(Math.max(w.getDataLength(), c.getDataLength()))
            .setIndexLength(Math.max(w.getIndexLength(), c.getIndexLength()))
            .setLogicalEnd(Math.max(w.getLogicalEnd(), c.getLogicalEnd()))
            .setMtimeMs(now)
            .setOpen(!c.getClose())
            .build();
    s.setWriters(i, committed);
    LogParts.commitSize(tx, committed.getDataFileId(), committed.getDataLength(), now);
    LogParts.commitSize(tx, committed.getIndexFileId(), committed.getIndexLength(), now);
    InodeProto.Builder out = log.toBuilder().setLog(s);
    if (c.getIndexLength() > w.getIndexLength()) {
      out.setSize(Math.max(log.getSize(), c.getLogicalEnd())).setMtimeMs(now).setCtimeMs(now);
    }
    InodeProto built = out.build();
    tx.putInode(built);
    return Replies.inode(built);
  }

  private static MetaResponseProto flatten(
      NamespaceTxn tx, InodeProto log, LogFlattenProto f, long now) {
    LogStateProto.Builder s = log.getLog().toBuilder();
    int i = writerAt(s, f.getWriter(), log);
    LogWriterProto flattener = s.getWriters(i);
    if (flattener.getDataFileId() != 0) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "writer " + f.getWriter() + " of file " + log.getId() + " was not opened to flatten");
    }
    if (f.getCutsMerged() > s.getCutsCount()) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT, "a flattened index merged cuts the file does not have");
    }
    for (Map.Entry<Integer, Long> e : f.getCoversMap().entrySet()) {
      LogWriterProto w = writerOrNull(s, e.getKey());
      if (w == null || e.getValue() > w.getIndexLength()) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT,
            "a flattened index covers more of writer " + e.getKey() + " than it committed");
      }
    }
    LogParts.drop(tx, log.getId(), s.getFlatIndexFileId());
    LogParts.commitSize(tx, flattener.getIndexFileId(), f.getIndexLength(), now);
    s.removeWriters(i);
    List<io.tessera.common.proto.LogCutProto> later =
        List.copyOf(s.getCutsList().subList(f.getCutsMerged(), s.getCutsCount()));
    s.setFlatIndexFileId(flattener.getIndexFileId())
        .setFlatIndexLength(f.getIndexLength())
        .setFlatEntries(f.getEntries())
        .clearFlatCovers()
        .putAllFlatCovers(f.getCoversMap())
        .clearCuts()
        .addAllCuts(later);
    InodeProto out = log.toBuilder().setLog(s).build();
    tx.putInode(out);
    return Replies.inode(out);
  }

  private static int writerAt(LogStateProto.Builder s, int writer, InodeProto log) {
    for (int i = 0; i < s.getWritersCount(); i++) {
      if (s.getWriters(i).getWriter() == writer) {
        return i;
      }
    }
    throw new NamespaceException(
        StatusProto.NOT_FOUND,
        "writer "
            + writer
            + " of file "
            + log.getId()
            + " is gone (the file was truncated to 0 after it closed): open the file again");
  }

  private static LogWriterProto writerOrNull(LogStateProto.Builder s, int writer) {
    return s.getWritersList().stream()
        .filter(w -> w.getWriter() == writer)
        .findFirst()
        .orElse(null);
  }
}
