package io.tessera.meta.state;

import io.tessera.common.cluster.SnapshotNames;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.PendingSnapshotProto;
import io.tessera.meta.proto.SnapshotBeginProto;
import io.tessera.meta.proto.SnapshotCommitProto;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The replicated side of snapshots: how each logged snapshot step changes the catalog, the pending
 * attempt and the global epoch. Every replica applies them identically.
 */
public final class SnapshotCatalog {
  private SnapshotCatalog() {}

  /** Refuses names that could not be a directory under /.snapshots. */
  public static void checkName(String name) {
    if (!SnapshotNames.valid(name)) {
      throw new NamespaceException(StatusProto.INVALID_ARGUMENT, SnapshotNames.whyInvalid(name));
    }
  }

  /** Attempts remembered as aborted before their BEGIN (they are random, so a few suffice). */
  private static final int ABORTED_REMEMBERED = 32;

  /**
   * An attempt starts at the current epoch; the name must be free (unless this same request took
   * it), and the attempt must not have been aborted already: the coordinator PREPAREs the data
   * servers while BEGIN is being logged, so a server may give up waiting before it is.
   */
  public static MetaResponseProto begin(NamespaceTxn tx, SnapshotBeginProto b) {
    checkName(b.getName());
    if (tx.abortedAttempts().contains(b.getAttempt())) {
      throw new NamespaceException(
          StatusProto.BUSY,
          "snapshot attempt "
              + b.getAttempt()
              + " was aborted before it began (a data server gave up waiting); retrying");
    }
    SnapshotProto existing = tx.snapshot(b.getName());
    if (existing != null) {
      if (existing.getCreatorClient().equals(b.getCreatorClient())
          && existing.getCreatorCall() == b.getCreatorCall()) {
        return reply(
            existing); // a retried request whose snapshot was committed before the leader changed
      }
      throw new NamespaceException(
          StatusProto.EXISTS,
          "snapshot '"
              + b.getName()
              + "' already exists (epoch "
              + existing.getEpoch()
              + ", taken "
              + Instant.ofEpochMilli(existing.getCreatedMs())
              + "); choose another name or delete it first");
    }
    PendingSnapshotProto pending =
        PendingSnapshotProto.newBuilder()
            .setAttempt(b.getAttempt())
            .setName(b.getName())
            .setEpoch(tx.epoch())
            .setCreatorClient(b.getCreatorClient())
            .setCreatorCall(b.getCreatorCall())
            .build();
    tx.setPendingSnapshot(pending);
    return reply(
        SnapshotProto.newBuilder().setName(b.getName()).setEpoch(pending.getEpoch()).build());
  }

  /** Whether a commit record will take effect (its attempt is still the pending one). */
  public static boolean commits(PendingSnapshotProto pending, SnapshotCommitProto c) {
    return pending != null && pending.getAttempt() == c.getAttempt();
  }

  /** Records the snapshot and moves the epoch on, unless the attempt was aborted meanwhile. */
  public static MetaResponseProto commit(NamespaceTxn tx, SnapshotCommitProto c, long now) {
    PendingSnapshotProto pending = tx.pendingSnapshot();
    if (!commits(pending, c)) {
      throw new NamespaceException(
          StatusProto.BUSY,
          "snapshot attempt "
              + c.getAttempt()
              + " was aborted before it could commit (a data server gave up waiting); retrying");
    }
    SnapshotProto record =
        SnapshotProto.newBuilder()
            .setName(pending.getName())
            .setEpoch(pending.getEpoch())
            .setCreatedMs(now)
            .addAllMissingServers(c.getMissingServersList())
            .setAttempts(c.getAttempts())
            .setTookMs(c.getTookMs())
            .setCreatorClient(pending.getCreatorClient())
            .setCreatorCall(pending.getCreatorCall())
            .build();
    tx.putSnapshot(record);
    tx.setEpoch(pending.getEpoch() + 1);
    tx.setPendingSnapshot(null);
    return reply(record);
  }

  /**
   * Forgets the attempt if it is still pending; an attempt not pending (its BEGIN may still be on
   * its way) is remembered so that its BEGIN is refused. Returns whether it was pending.
   */
  public static boolean abort(NamespaceTxn tx, long attempt) {
    PendingSnapshotProto pending = tx.pendingSnapshot();
    if (pending != null && pending.getAttempt() == attempt) {
      tx.setPendingSnapshot(null);
      return true;
    }
    List<Long> aborted = new ArrayList<>(tx.abortedAttempts());
    if (!aborted.contains(attempt)) {
      aborted.add(attempt);
      tx.setAbortedAttempts(
          aborted.subList(Math.max(0, aborted.size() - ABORTED_REMEMBERED), aborted.size()));
    }
    return false;
  }

  /** Deletes a snapshot from the catalog (data servers free its versions when they hear of it). */
  public static MetaResponseProto drop(NamespaceTxn tx, String name) {
    checkName(name);
    SnapshotProto existing = tx.snapshot(name);
    if (existing == null) {
      throw new NamespaceException(
          StatusProto.NOT_FOUND,
          "no snapshot called '" + name + "' (tessera snapshot list shows them)");
    }
    tx.dropSnapshot(existing);
    return reply(existing);
  }

  private static MetaResponseProto reply(SnapshotProto s) {
    return MetaResponseProto.newBuilder().setStatus(StatusProto.OK).setSnapshot(s).build();
  }
}
