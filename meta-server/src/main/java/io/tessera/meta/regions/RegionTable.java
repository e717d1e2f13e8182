package io.tessera.meta.regions;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.RegionHolderProto;
import io.tessera.common.proto.RegionRangeProto;
import io.tessera.common.proto.RegionResponseProto;
import io.tessera.common.proto.SharingProto;
import io.tessera.common.region.HeldRegions;
import io.tessera.common.region.Region;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Who holds which regions and sharing intents of which files, for one leadership term of the home.
 * A client holds everything under one lease; a lock that conflicts with another client's regions
 * calls those back (the holder gives them up once its application no longer uses them) and waits,
 * up to the time it asked for. Thread-safe; futures complete outside its monitor.
 */
final class RegionTable {
  /** Most regions one client may hold at once (each is a few words here). */
  static final int MAX_REGIONS_PER_CLIENT = 65_536;

  /** Most lock requests waiting on one file. */
  static final int MAX_WAITERS_PER_FILE = 1024;

  /** Most clients holding a lease at once. */
  static final int MAX_CLIENTS = 100_000;

  /** Most regions held by all clients together (bounds the home's memory). */
  static final int MAX_REGIONS = 1_000_000;

  /** What a lock or open came to. */
  sealed interface Outcome permits Granted, Refused {}

  record Granted() implements Outcome {}

  /** Refused: {@code why} names who holds what; {@code holders} lists them. */
  record Refused(String why, List<RegionHolderProto> holders) implements Outcome {}

  /** A lock request waiting for conflicting holders to give regions back. */
  private record Waiter(
      RegionClient client,
      long fileId,
      Region region,
      long deadline,
      CompletableFuture<Outcome> done) {}

  /** A renew held until a call-back or its deadline. */
  record ParkedRenew(long deadline, CompletableFuture<RegionResponseProto> done) {}

  /** A client whose lease ran out, with what it held (for the home's log line). */
  record Expired(String client, int regions, int files, int intents) {}

  private final long leaseNanos;
  private final LongSupplier clock;
  private final Map<ByteString, RegionClient> clients = new HashMap<>();
  private final Map<Long, ArrayDeque<Waiter>> waiters = new HashMap<>();
  private final List<Runnable> completions = new ArrayList<>();

  /** Regions held by all clients. */
  private long regions;

  RegionTable(long leaseNanos, LongSupplier clock) {
    this.leaseNanos = leaseNanos;
    this.clock = clock;
  }

  long leaseNanos() {
    return leaseNanos;
  }

  /**
   * Locks {@code region} of the file for the client, at once if no other client holds an
   * overlapping region in a conflicting mode; else calls those back and waits up to {@code
   * waitNanos} (a reclaim never waits).
   */
  CompletableFuture<Outcome> lock(
      ByteString clientId, long fileId, Region region, boolean reclaim, long waitNanos) {
    CompletableFuture<Outcome> result;
    synchronized (this) {
      RegionClient c = touch(clientId, null);
      if (c == null) {
        return refused("the lock home serves " + MAX_CLIENTS + " clients already; try later");
      }
      if (regions >= MAX_REGIONS) {
        return refused(
            "the lock home holds "
                + MAX_REGIONS
                + " regions already; try later (or lock larger regions)");
      }
      if (c.regionCount() >= MAX_REGIONS_PER_CLIENT) {
        return refused(
            "this client holds "
                + MAX_REGIONS_PER_CLIENT
                + " regions already: release some (or lock larger regions)");
      }
      List<RegionHolderProto> conflicts = conflicts(c, fileId, region);
      if (conflicts.isEmpty()) {
        grant(c, fileId, region);
        result = CompletableFuture.completedFuture(new Granted());
      } else {
        callBack(c, fileId, region);
        ArrayDeque<Waiter> queue = waiters.computeIfAbsent(fileId, f -> new ArrayDeque<>());
        if (reclaim || waitNanos <= 0 || queue.size() >= MAX_WAITERS_PER_FILE) {
          dropEmptyQueue(fileId);
          result = CompletableFuture.completedFuture(refusal(region, conflicts));
        } else {
          Waiter w =
              new Waiter(
                  c, fileId, region, clock.getAsLong() + waitNanos, new CompletableFuture<>());
          queue.add(w);
          result = w.done;
        }
      }
    }
    runCompletions();
    return result;
  }

  /** Gives up bytes {@code [start, end)} of the file; waiting locks that now fit are granted. */
  void unlock(ByteString clientId, long fileId, long start, long end) {
    synchronized (this) {
      RegionClient c = touch(clientId, null);
      if (c != null) {
        release(c, fileId, start, end);
      }
    }
    runCompletions();
  }

  /**
   * Declares the client's sharing intent on the file; refused when another client holds an intent
   * that is not the same (or either is exclusive).
   */
  synchronized Outcome open(ByteString clientId, long fileId, SharingProto sharing) {
    RegionClient c = touch(clientId, null);
    if (c == null) {
      return new Refused(
          "the lock home serves " + MAX_CLIENTS + " clients already; try later", List.of());
    }
    if (c.intents.size() >= MAX_REGIONS_PER_CLIENT && !c.intents.containsKey(fileId)) {
      return new Refused(
          "this client has intents on " + MAX_REGIONS_PER_CLIENT + " files already: close some",
          List.of());
    }
    List<RegionHolderProto> conflicts = new ArrayList<>();
    for (RegionClient other : clients.values()) {
      EnumMap<SharingProto, Integer> theirs = other.intents.get(fileId);
      if (other == c || theirs == null) {
        continue;
      }
      for (SharingProto s : theirs.keySet()) {
        if (s != sharing || s == SharingProto.SHARING_EXCLUSIVE) {
          conflicts.add(holder(other, null, s));
        }
      }
    }
    if (!conflicts.isEmpty()) {
      RegionHolderProto first = conflicts.get(0);
      return new Refused(
          first.getClient()
              + " has it open "
              + SharingNames.of(first.getSharing())
              + ", which does not admit "
              + SharingNames.of(sharing)
              + (conflicts.size() > 1 ? " (and " + (conflicts.size() - 1) + " more)" : "")
              + ": open it when they close it, or with the intent they declared",
          conflicts);
    }
    c.intents
        .computeIfAbsent(fileId, f -> new EnumMap<>(SharingProto.class))
        .merge(sharing, 1, Integer::sum);
    return new Granted();
  }

  /** Ends one open of the file with that intent. */
  synchronized void close(ByteString clientId, long fileId, SharingProto sharing) {
    RegionClient c = clients.get(clientId);
    if (c == null) {
      return;
    }
    touch(clientId, null);
    EnumMap<SharingProto, Integer> mine = c.intents.get(fileId);
    if (mine != null && mine.computeIfPresent(sharing, (s, n) -> n > 1 ? n - 1 : null) == null) {
      if (mine.isEmpty()) {
        c.intents.remove(fileId);
      }
    }
  }

  /**
   * Renews the client's lease; the answer carries the regions called back from it. It comes at once
   * when there is news (a call-back not yet told, or a client the home does not know: it must
   * reclaim), else when a call-back comes or after {@code waitNanos}.
   */
  CompletableFuture<RegionResponseProto> renew(
      ByteString clientId, String description, long waitNanos) {
    CompletableFuture<RegionResponseProto> result;
    synchronized (this) {
      boolean known = clients.containsKey(clientId);
      RegionClient c = touch(clientId, description);
      if (c == null) {
        return CompletableFuture.completedFuture(
            RegionResponseProto.newBuilder().setLeaseMs(0).build());
      }
      if (!known || c.recalls.containsValue(false) || waitNanos <= 0) {
        result = CompletableFuture.completedFuture(renewal(c, !known));
      } else {
        if (c.parked != null) {
          ParkedRenew old = c.parked;
          RegionResponseProto now = renewal(c, false);
          completions.add(() -> old.done().complete(now));
        }
        c.parked = new ParkedRenew(clock.getAsLong() + waitNanos, new CompletableFuture<>());
        result = c.parked.done();
      }
    }
    runCompletions();
    return result;
  }

  /** Every holder of the file's regions and intents. */
  synchronized List<RegionHolderProto> holders(long fileId) {
    List<RegionHolderProto> out = new ArrayList<>();
    for (RegionClient c : clients.values()) {
      HeldRegions held = c.held.get(fileId);
      if (held != null) {
        for (Region r : held.all()) {
          out.add(holder(c, r.toProto(fileId), SharingProto.SHARING_UNDECLARED));
        }
      }
      EnumMap<SharingProto, Integer> intents = c.intents.get(fileId);
      if (intents != null) {
        intents.keySet().forEach(s -> out.add(holder(c, null, s)));
      }
    }
    return out;
  }

  /**
   * Ends the leases that ran out (their regions and intents are released), answers renews and
   * refuses waiting locks whose time is up; returns the clients that expired.
   */
  List<Expired> tick() {
    List<Expired> expired = new ArrayList<>();
    synchronized (this) {
      long now = clock.getAsLong();
      for (Iterator<RegionClient> it = clients.values().iterator(); it.hasNext(); ) {
        RegionClient c = it.next();
        if (c.parked != null && now - c.parked.deadline() >= 0) {
          ParkedRenew p = c.parked;
          c.parked = null;
          RegionResponseProto r = renewal(c, false);
          completions.add(() -> p.done().complete(r));
        }
        if (now - c.expiresAtNanos >= 0 && c.parked == null) {
          it.remove();
          expired.add(new Expired(c.description, c.regionCount(), c.held.size(), c.intents.size()));
          for (ArrayDeque<Waiter> q : waiters.values()) {
            q.removeIf(
                w -> {
                  boolean mine = w.client() == c;
                  if (mine) {
                    completions.add(
                        () ->
                            w.done()
                                .complete(new Refused("this client's lease ran out", List.of())));
                  }
                  return mine;
                });
          }
          regions -= c.regionCount();
          for (long fileId : List.copyOf(c.held.keySet())) {
            c.held.remove(fileId);
            grantWaiters(fileId);
          }
        }
      }
      for (Map.Entry<Long, ArrayDeque<Waiter>> e : List.copyOf(waiters.entrySet())) {
        for (Iterator<Waiter> it = e.getValue().iterator(); it.hasNext(); ) {
          Waiter w = it.next();
          if (now - w.deadline() >= 0) {
            it.remove();
            Outcome o = refusal(w.region(), conflicts(w.client(), w.fileId(), w.region()));
            completions.add(() -> w.done().complete(o));
          }
        }
        dropEmptyQueue(e.getKey());
      }
    }
    runCompletions();
    return expired;
  }

  /** Ends every renew and waiting lock (this replica is no longer the home). */
  void clear(Throwable why) {
    synchronized (this) {
      for (RegionClient c : clients.values()) {
        if (c.parked != null) {
          ParkedRenew p = c.parked;
          completions.add(() -> p.done().completeExceptionally(why));
        }
      }
      for (ArrayDeque<Waiter> q : waiters.values()) {
        q.forEach(w -> completions.add(() -> w.done().completeExceptionally(why)));
      }
      clients.clear();
      waiters.clear();
      regions = 0;
    }
    runCompletions();
  }

  synchronized int clientCount() {
    return clients.size();
  }

  private RegionClient touch(ByteString clientId, String description) {
    RegionClient c = clients.get(clientId);
    if (c == null) {
      if (clients.size() >= MAX_CLIENTS) {
        return null;
      }
      c = new RegionClient(clientId, description == null ? "a client" : description);
      clients.put(clientId, c);
    } else if (description != null) {
      c.description = description;
    }
    c.expiresAtNanos = clock.getAsLong() + leaseNanos;
    return c;
  }

  private void grant(RegionClient c, long fileId, Region region) {
    HeldRegions held = c.held.computeIfAbsent(fileId, f -> new HeldRegions());
    int before = held.size();
    held.add(region);
    regions += held.size() - before;
  }

  private void release(RegionClient c, long fileId, long start, long end) {
    HeldRegions held = c.held.get(fileId);
    if (held == null) {
      return;
    }
    int before = held.size();
    held.remove(start, end);
    regions += held.size() - before;
    if (held.isEmpty()) {
      c.held.remove(fileId);
    }
    c.recalls
        .keySet()
        .removeIf(
            r ->
                r.getFileId() == fileId
                    && (c.held.get(fileId) == null
                        || c.held
                            .get(fileId)
                            .overlapping(Region.of(r).start(), Region.of(r).end())
                            .isEmpty()));
    grantWaiters(fileId);
  }

  /**
   * Grants, in arrival order, the waiting locks of the file that fit now; calls back for the rest.
   */
  private void grantWaiters(long fileId) {
    ArrayDeque<Waiter> queue = waiters.get(fileId);
    if (queue == null) {
      return;
    }
    for (Iterator<Waiter> it = queue.iterator(); it.hasNext(); ) {
      Waiter w = it.next();
      if (conflicts(w.client(), fileId, w.region()).isEmpty()) {
        it.remove();
        grant(w.client(), fileId, w.region());
        completions.add(() -> w.done().complete(new Granted()));
      } else {
        callBack(w.client(), fileId, w.region());
      }
    }
    dropEmptyQueue(fileId);
  }

  private List<RegionHolderProto> conflicts(RegionClient asking, long fileId, Region region) {
    List<RegionHolderProto> out = new ArrayList<>();
    for (RegionClient c : clients.values()) {
      HeldRegions held = c.held.get(fileId);
      if (c == asking || held == null) {
        continue;
      }
      for (Region h : held.overlapping(region.start(), region.end())) {
        if (h.conflicts(region)) {
          out.add(holder(c, h.toProto(fileId), SharingProto.SHARING_UNDECLARED));
        }
      }
    }
    return out;
  }

  /** Asks every other client holding a conflicting part of {@code region} to give it back. */
  private void callBack(RegionClient asking, long fileId, Region region) {
    for (RegionClient c : clients.values()) {
      HeldRegions held = c.held.get(fileId);
      if (c == asking || held == null) {
        continue;
      }
      boolean news = false;
      for (Region h : held.overlapping(region.start(), region.end())) {
        if (h.conflicts(region)) {
          news |= c.recalls.putIfAbsent(h.toProto(fileId), false) == null;
        }
      }
      if (news && c.parked != null) {
        ParkedRenew p = c.parked;
        c.parked = null;
        RegionResponseProto r = renewal(c, false);
        completions.add(() -> p.done().complete(r));
      }
    }
  }

  private RegionResponseProto renewal(RegionClient c, boolean unknown) {
    RegionResponseProto.Builder b =
        RegionResponseProto.newBuilder()
            .setLeaseMs((int) (leaseNanos / 1_000_000))
            .setUnknownClient(unknown)
            .addAllRecalls(c.recalls.keySet());
    c.recalls.replaceAll((r, told) -> true);
    return b.build();
  }

  private RegionHolderProto holder(RegionClient c, RegionRangeProto range, SharingProto sharing) {
    RegionHolderProto.Builder b =
        RegionHolderProto.newBuilder()
            .setClient(c.description)
            .setSharing(sharing)
            .setLeaseLeftMs((int) Math.max(0, (c.expiresAtNanos - clock.getAsLong()) / 1_000_000));
    if (range != null) {
      b.setRange(range)
          .setCalledBack(
              c.recalls.keySet().stream()
                  .anyMatch(
                      r ->
                          r.getFileId() == range.getFileId()
                              && Region.of(r)
                                  .overlaps(Region.of(range).start(), Region.of(range).end())));
    }
    return b.build();
  }

  private static Refused refusal(Region region, List<RegionHolderProto> conflicts) {
    if (conflicts.isEmpty()) {
      return new Refused("the lock home was busy with other requests for the file", List.of());
    }
    RegionHolderProto first = conflicts.get(0);
    return new Refused(
        region
            + " overlaps "
            + Region.of(first.getRange())
            + " held by "
            + first.getClient()
            + (first.getCalledBack() ? " (called back; it is still using it)" : "")
            + (conflicts.size() > 1 ? " and " + (conflicts.size() - 1) + " more" : ""),
        conflicts);
  }

  private static CompletableFuture<Outcome> refused(String why) {
    return CompletableFuture.completedFuture(new Refused(why, List.of()));
  }

  private void dropEmptyQueue(long fileId) {
    ArrayDeque<Waiter> q = waiters.get(fileId);
    if (q != null && q.isEmpty()) {
      waiters.remove(fileId);
    }
  }

  private void runCompletions() {
    List<Runnable> now;
    synchronized (this) {
      if (completions.isEmpty()) {
        return;
      }
      now = List.copyOf(completions);
      completions.clear();
    }
    now.forEach(Runnable::run);
  }
}
