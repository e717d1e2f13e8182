package io.tessera.meta.state;

import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.LogCutProto;
import io.tessera.common.proto.LogStateProto;
import io.tessera.common.proto.LogWriterProto;
import java.util.List;

/**
 * The hidden striped files a log file's writers append to: inodes linked under the log file's own
 * id (no directory lists them, no path reaches them), owned and moded as the log file is, so that
 * getattr by id and access tokens treat them as the log file's bytes. Recovery, reclaim and
 * snapshots see ordinary files.
 */
final class LogParts {
  private LogParts() {}

  static boolean isLog(InodeProto in) {
    return in.hasLayout() && in.getLayout().getKind() == LayoutKindProto.LOG;
  }

  /** Creates one part of {@code log} named {@code name}, striped over {@code servers}. */
  static InodeProto create(
      NamespaceTxn tx, InodeProto log, String name, List<String> servers, long now) {
    LayoutProto l = log.getLayout();
    if (servers.size() != l.getDataUnits() + l.getParityUnits()) {
      throw new NamespaceException(
          io.tessera.common.proto.StatusProto.INTERNAL,
          "a log part of file " + log.getId() + " reached the log without a placement");
    }
    InodeProto part =
        InodeProto.newBuilder()
            .setId(tx.allocateInodeId())
            .setType(FileTypeProto.REGULAR)
            .setMode(log.getMode())
            .setUid(log.getUid())
            .setGid(log.getGid())
            .setMtimeMs(now)
            .setCtimeMs(now)
            .setBornMs(now)
            .setParentId(log.getId())
            .setName(name)
            .setLayout(
                LayoutProto.newBuilder()
                    .setKind(LayoutKindProto.STRIPED)
                    .setStripeUnit(l.getStripeUnit())
                    .setDataUnits(l.getDataUnits())
                    .setParityUnits(l.getParityUnits())
                    .addAllServers(servers))
            .build();
    tx.putInode(part);
    tx.link(log.getId(), name, part.getId());
    return part;
  }

  /** Sets a part's committed size (what recovery rebuilds and readers look at). */
  static void commitSize(NamespaceTxn tx, long partId, long size, long now) {
    InodeProto part = tx.inode(partId);
    if (part != null && part.getSize() != size) {
      tx.putInode(part.toBuilder().setSize(size).setMtimeMs(now).build());
    }
  }

  /** Removes a part and reclaims its shards. */
  static void drop(NamespaceTxn tx, long logId, long partId) {
    if (partId == 0) {
      return;
    }
    InodeProto part = tx.inode(partId);
    if (part != null) {
      tx.unlink(logId, part.getName());
      Inodes.dropFile(tx, part);
    }
  }

  /** Removes every part of a log file being removed. */
  static void dropAll(NamespaceTxn tx, InodeProto log) {
    LogStateProto s = log.getLog();
    for (LogWriterProto w : s.getWritersList()) {
      drop(tx, log.getId(), w.getDataFileId());
      drop(tx, log.getId(), w.getIndexFileId());
    }
    drop(tx, log.getId(), s.getFlatIndexFileId());
  }

  /** The parts take the log file's mode, owner and group (what access tokens are granted by). */
  static void follow(NamespaceTxn tx, InodeProto log) {
    LogStateProto s = log.getLog();
    for (LogWriterProto w : s.getWritersList()) {
      followOne(tx, log, w.getDataFileId());
      followOne(tx, log, w.getIndexFileId());
    }
    followOne(tx, log, s.getFlatIndexFileId());
  }

  private static void followOne(NamespaceTxn tx, InodeProto log, long partId) {
    InodeProto part = partId == 0 ? null : tx.inode(partId);
    if (part != null
        && (part.getMode() != log.getMode()
            || part.getUid() != log.getUid()
            || part.getGid() != log.getGid())) {
      tx.putInode(
          part.toBuilder()
              .setMode(log.getMode())
              .setUid(log.getUid())
              .setGid(log.getGid())
              .build());
    }
  }

  /**
   * A truncate of a log file to {@code size}: everything committed so far ends there; a cut to 0
   * with no writer open drops every log.
   */
  static InodeProto.Builder cut(NamespaceTxn tx, InodeProto log, long size) {
    LogStateProto s = log.getLog();
    InodeProto.Builder b = log.toBuilder();
    if (size == 0 && s.getWritersList().stream().noneMatch(LogWriterProto::getOpen)) {
      dropAll(tx, log);
      return b.setLog(LogStateProto.newBuilder().setNextWriter(s.getNextWriter()));
    }
    LogCutProto.Builder c = LogCutProto.newBuilder().setSize(size);
    for (LogWriterProto w : s.getWritersList()) {
      c.putIndexLengths(w.getWriter(), w.getIndexLength());
    }
    return b.setLog(s.toBuilder().addCuts(c));
  }
}
