package io.tessera.meta.regions;

import com.google.protobuf.ByteString;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RegionLockProto;
import io.tessera.common.proto.RegionRequestProto;
import io.tessera.common.proto.RegionResponseProto;
import io.tessera.common.proto.SharingProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.region.Region;
import io.tessera.common.status.TesseraException;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.state.Actor;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.Permissions;
import io.tessera.meta.state.Replies;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock home: the meta leader serves region locks and sharing intents from a {@link RegionTable}
 * in memory, one per leadership term. A lock is one request to the leader, never a Raft commit
 * (measured against a data-server home: docs/benchmarks). A replica that takes over from another
 * leader knows nothing of the locks granted there: for one lease it takes only reclaims, which its
 * clients send when their renew answers that it does not know them, then new requests. Every client
 * that held a lock at the old home either reclaims it within that time or has seen its own lease
 * run out (it counts its lease from before it asked).
 */
public final class RegionHome implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionHome.class);

  /** Longest a lock or renew request is held at the home (clients repeat longer waits). */
  static final int MAX_WAIT_MS = 5000;

  /** Longest client description kept. */
  private static final int MAX_DESCRIPTION = 160;

  private final RaftSubmitter raft;
  private final Supplier<NamespaceStore> store;
  private final long leaseNanos;
  private final ScheduledExecutorService ticker;

  private RegionTable table;
  private long term = -1;
  private long graceUntilNanos;
  private volatile boolean sawAnotherLeader;

  public RegionHome(RaftSubmitter raft, Supplier<NamespaceStore> store, Duration lease) {
    this.raft = raft;
    this.store = store;
    this.leaseNanos = lease.toNanos();
    this.ticker = DaemonTimer.named("region-home");
  }

  public void start() {
    ticker.scheduleWithFixedDelay(this::tick, 100, 100, TimeUnit.MILLISECONDS);
  }

  /** Serves meta.proto's {@code region} request (this replica is the leader). */
  public CompletableFuture<MetaResponseProto> serve(MetaRequestProto req) {
    RegionRequestProto r = req.getRegion();
    ByteString client = req.getCaller().getClientId();
    if (client.isEmpty() || client.size() > 64) {
      return error(StatusProto.INVALID_ARGUMENT, "a region request needs the caller's client id");
    }
    RegionTable t = current();
    Actor actor = Actor.of(req.getActor());
    return answer(t, client, actor, r).thenApply(this::withLease);
  }

  private CompletableFuture<MetaResponseProto> answer(
      RegionTable t, ByteString client, Actor actor, RegionRequestProto r) {
    try {
      return switch (r.getOpCase()) {
        case RENEW ->
            t.renew(
                    client,
                    describe(actor, r.getRenew().getDescription()),
                    waitNanos(r.getRenew().getWaitMs()))
                .thenApply(this::withGrace);
        case LIST -> {
          file(r.getFileId(), actor, Permissions.READ);
          yield ok(RegionResponseProto.newBuilder().addAllHolders(t.holders(r.getFileId())));
        }
        case OPEN -> open(t, client, actor, r);
        case CLOSE -> {
          t.close(client, r.getFileId(), r.getClose().getSharing());
          yield ok(RegionResponseProto.newBuilder());
        }
        case LOCK -> lock(t, client, actor, r.getFileId(), r.getLock());
        case UNLOCK -> {
          Region region = Region.of(r.getUnlock().getOffset(), r.getUnlock().getLength(), false);
          t.unlock(client, r.getFileId(), region.start(), region.end());
          yield ok(RegionResponseProto.newBuilder());
        }
        case OP_NOT_SET -> error(StatusProto.INVALID_ARGUMENT, "region request names no operation");
      };
    } catch (NamespaceException e) {
      return error(e.status(), e.getMessage());
    } catch (IllegalArgumentException e) {
      return error(StatusProto.INVALID_ARGUMENT, e.getMessage());
    }
  }

  private CompletableFuture<MetaResponseProto> open(
      RegionTable t, ByteString client, Actor actor, RegionRequestProto r) {
    SharingProto sharing = r.getOpen().getSharing();
    if (sharing == SharingProto.SHARING_UNDECLARED || sharing == SharingProto.UNRECOGNIZED) {
      return error(StatusProto.INVALID_ARGUMENT, "an open names its sharing intent");
    }
    file(
        r.getFileId(),
        actor,
        sharing == SharingProto.SHARING_SHARED_READERS || sharing == SharingProto.SHARING_ANY
            ? Permissions.READ
            : Permissions.WRITE);
    CompletableFuture<MetaResponseProto> grace = inGrace(r.getOpen().getReclaim());
    if (grace != null) {
      return grace;
    }
    return answer(t.open(client, r.getFileId(), sharing));
  }

  private CompletableFuture<MetaResponseProto> lock(
      RegionTable t, ByteString client, Actor actor, long fileId, RegionLockProto l) {
    Region region = Region.of(l.getOffset(), l.getLength(), l.getExclusive());
    file(fileId, actor, l.getExclusive() ? Permissions.WRITE : Permissions.READ);
    CompletableFuture<MetaResponseProto> grace = inGrace(l.getReclaim());
    if (grace != null) {
      return grace;
    }
    return t.lock(client, fileId, region, l.getReclaim(), waitNanos(l.getWaitMs()))
        .thenCompose(RegionHome::answer);
  }

  /** The file, a regular one the actor may lock as asked. */
  private InodeProto file(long fileId, Actor actor, int bits) {
    InodeProto in = store.get().inode(fileId);
    if (in == null) {
      throw new NamespaceException(StatusProto.NOT_FOUND, "no file with id " + fileId);
    }
    if (in.getType() != FileTypeProto.REGULAR) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT, "file id " + fileId + " is not a regular file");
    }
    if (!Permissions.allows(actor, in, bits)) {
      throw new NamespaceException(
          StatusProto.PERMISSION_DENIED,
          "permission denied: "
              + actor.proto().getName()
              + " may not "
              + (bits == Permissions.WRITE ? "write" : "read")
              + " file "
              + fileId
              + ", so may not lock it that way");
    }
    return in;
  }

  /** The refusal of a new lock while this home takes only reclaims, or null. */
  private synchronized CompletableFuture<MetaResponseProto> inGrace(boolean reclaim) {
    long left = graceUntilNanos - System.nanoTime();
    if (reclaim || left <= 0) {
      return null;
    }
    // UNAVAILABLE: clients' meta calls retry it on their own until the grace period is over
    return error(
        StatusProto.UNAVAILABLE,
        "this meta replica became the lock home a moment ago: for "
            + (left / 1_000_000 + 1)
            + " ms more it takes only locks clients held at the previous one");
  }

  /** Every answer says how long the lease runs, counted from before the client asked. */
  private MetaResponseProto withLease(MetaResponseProto r) {
    return r.getStatus() != StatusProto.OK || r.getRegion().getLeaseMs() > 0
        ? r
        : r.toBuilder()
            .setRegion(r.getRegion().toBuilder().setLeaseMs((int) (leaseNanos / 1_000_000)))
            .build();
  }

  private synchronized MetaResponseProto withGrace(RegionResponseProto r) {
    long left = Math.max(0, graceUntilNanos - System.nanoTime());
    return MetaResponseProto.newBuilder()
        .setRegion(r.toBuilder().setGraceLeftMs((int) (left / 1_000_000)))
        .build();
  }

  /** The table of this leadership term; a new term starts empty (in grace after a takeover). */
  private synchronized RegionTable current() {
    long now = raft.term();
    if (table == null || now != term) {
      if (table != null) {
        table.clear(TesseraException.of(StatusProto.UNAVAILABLE, "the lock home moved"));
      }
      table = new RegionTable(leaseNanos, System::nanoTime);
      term = now;
      if (sawAnotherLeader) {
        graceUntilNanos = System.nanoTime() + leaseNanos;
        LOG.info(
            "Region locks: this replica is the lock home from term {}; for {} ms it takes only"
                + " reclaims of locks held at the previous home",
            now,
            leaseNanos / 1_000_000);
      }
    }
    return table;
  }

  private void tick() {
    try {
      if (raft.followsAnotherLeader()) {
        sawAnotherLeader = true;
      }
      RegionTable t;
      synchronized (this) {
        t = table;
        if (t != null && !raft.isLeader()) {
          table = null;
          t.clear(
              TesseraException.of(StatusProto.NOT_LEADER, "this replica is no longer the leader"));
          return;
        }
      }
      if (t == null) {
        return;
      }
      for (RegionTable.Expired e : t.tick()) {
        if (e.regions() == 0 && e.intents() == 0) {
          continue; // it held nothing here: nobody waited on it
        }
        LOG.warn(
            "Region locks: {} stopped renewing its lease ({} ms): released {} regions of {} files"
                + " and its intents on {} files",
            e.client(),
            leaseNanos / 1_000_000,
            e.regions(),
            e.files(),
            e.intents());
      }
    } catch (RuntimeException e) {
      LOG.warn("Region lock upkeep failed: {}", e.toString());
    }
  }

  private static String describe(Actor actor, String said) {
    String name = actor.proto().getName().isEmpty() ? "a client" : actor.proto().getName();
    String s = said.isBlank() ? name : name + " (" + said.strip() + ")";
    return s.length() > MAX_DESCRIPTION ? s.substring(0, MAX_DESCRIPTION) : s;
  }

  private static long waitNanos(int waitMs) {
    return TimeUnit.MILLISECONDS.toNanos(Math.max(0, Math.min(MAX_WAIT_MS, waitMs)));
  }

  private static CompletableFuture<MetaResponseProto> answer(RegionTable.Outcome o) {
    if (o instanceof RegionTable.Refused r) {
      return CompletableFuture.completedFuture(
          MetaResponseProto.newBuilder()
              .setStatus(StatusProto.BUSY)
              .setMessage(r.why())
              .setRegion(RegionResponseProto.newBuilder().addAllHolders(r.holders()))
              .build());
    }
    return ok(RegionResponseProto.newBuilder());
  }

  private static CompletableFuture<MetaResponseProto> ok(RegionResponseProto.Builder r) {
    return CompletableFuture.completedFuture(MetaResponseProto.newBuilder().setRegion(r).build());
  }

  private static CompletableFuture<MetaResponseProto> error(StatusProto s, String message) {
    return CompletableFuture.completedFuture(Replies.error(s, message));
  }

  /** Clients holding a lease here now (for metrics and tests). */
  public synchronized int clients() {
    return table == null ? 0 : table.clientCount();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    RegionTable t;
    synchronized (this) {
      t = table;
      table = null;
    }
    if (t != null) {
      t.clear(TesseraException.of(StatusProto.UNAVAILABLE, "the meta server is stopping"));
    }
  }
}
