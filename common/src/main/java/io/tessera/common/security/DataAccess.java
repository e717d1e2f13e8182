package io.tessera.common.security;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import java.util.ArrayList;
import java.util.List;

/**
 * What a data.proto request takes to be served, by kind: the meta group's coordination (snapshot
 * gates, layout fences, dirty logs, reclaiming removed files) and every recovery request are the
 * meta group's alone; reading a file's shards takes a read token for it, writing, locking and
 * truncating a write token. Data servers and QoS proxies decide by this one table.
 */
public final class DataAccess {
  /** What a request needs. */
  public enum Need {
    /** The meta group (or a proxy forwarding for it). */
    SERVER,
    /** The meta group, or an admin (snapshot usage in {@code snapshot list}). */
    SERVER_OR_ADMIN,
    /** Any authenticated caller (forcing written data to disk). */
    ANYONE,
    READ,
    WRITE
  }

  private DataAccess() {}

  public static Need of(DataRequestProto req) {
    if (req.getRecovery()) {
      return Need.SERVER;
    }
    return switch (req.getOpCase()) {
      case READ -> Need.READ;
      case WRITE, LOCK_READ, UNLOCK, RENEW_LOCK, TRUNCATE -> Need.WRITE;
      case SYNC -> Need.ANYONE;
      case SCAN_VERSIONS -> Need.SERVER_OR_ADMIN;
      default -> Need.SERVER;
    };
  }

  /** The files a READ or WRITE request touches, each needing a token (in request order). */
  public static List<Long> files(DataRequestProto req) {
    List<Long> out = new ArrayList<>();
    switch (req.getOpCase()) {
      case READ -> addRanges(out, req.getRead().getRangesList());
      case WRITE -> {
        addRanges(out, req.getWrite().getRangesList());
        if (req.getWrite().hasUnlock()) {
          add(out, req.getWrite().getUnlock().getFileId());
        }
      }
      case LOCK_READ -> {
        add(out, req.getLockRead().getLock().getFileId());
        addRanges(out, req.getLockRead().getReadsList());
      }
      case UNLOCK -> add(out, req.getUnlock().getLock().getFileId());
      case RENEW_LOCK -> add(out, req.getRenewLock().getLock().getFileId());
      case TRUNCATE -> add(out, req.getTruncate().getFileId());
      default -> {}
    }
    return out;
  }

  /** The snapshot epoch a read is at, or -1 for the live file (and for every change). */
  public static long snapshotEpoch(DataRequestProto req) {
    return req.hasRead() && req.getRead().getAtSnapshot() ? req.getRead().getSnapshotEpoch() : -1;
  }

  private static void addRanges(List<Long> out, List<ShardRangeProto> ranges) {
    for (ShardRangeProto r : ranges) {
      add(out, r.getFileId());
    }
  }

  private static void add(List<Long> out, long fileId) {
    if (!out.contains(fileId)) {
      out.add(fileId);
    }
  }
}
