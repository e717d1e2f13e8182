package io.tessera.qos.sched;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Start-time Fair Queueing with depth D (SFQ(D)) in front of one data server, with mClock's
 * reservations and limits and vPFS's total-service fairness.
 *
 * <p>Each application's requests wait in its own FIFO queue. The request at the head gets a start
 * tag {@code S = max(v, F_prev + elsewhere / weight)} and a finish tag {@code F = S + cost /
 * weight}, where {@code v} is the start tag of the request last dispatched, {@code F_prev} the
 * application's previous finish tag, and {@code elsewhere} the service it was given at other
 * proxies since, counted as here (so its share is of the total across all servers, not of each).
 * {@code cost} is the request's bytes plus a constant per request, so small random requests are not
 * free. At most D requests are at the data server at once.
 *
 * <p>A dispatch first serves any head whose reservation tag ({@code R = max(R_prev + bytes /
 * reservation, arrival)}) is due; then, among heads under their limit ({@code L = max(L_prev +
 * bytes / limit, arrival)} not in the future), the smallest start tag. Reservations and limits
 * count bytes a second, not the per-request cost, and like weights they count the bytes served
 * elsewhere too: a limit is one ceiling over all servers, not one per proxy (dmClock's delta).
 * Service given for a reservation does not advance the application's start tags, as in mClock. An
 * application that is not work conserving keeps its share of the D slots (by weight) to itself,
 * used or not, so its next burst is dispatched at once instead of behind an aggressive
 * application's.
 *
 * <p>Thread-safe. {@link #submit} and {@link #done} run dispatched requests on the calling thread,
 * outside the lock.
 */
public final class FairScheduler {
  /** Nanoseconds, monotonic. */
  public interface Clock {
    long nanos();
  }

  /** Arranges a later call of {@link FairScheduler#pump} when limited requests become due. */
  public interface Timer {
    void wakeAfter(long nanos, Runnable pump);
  }

  /** What each application was served at the other proxies, summed, as last heard. */
  public interface Elsewhere {
    Served served(String app);
  }

  /**
   * Totals served to one application. Weights share {@code service}; limits and reservations, being
   * bytes a second, count {@code bytes}.
   *
   * @param service bytes plus the per-request cost of each request
   */
  public record Served(long bytes, long service) {
    public static final Served NONE = new Served(0, 0);

    public Served plus(Served other) {
      return new Served(bytes + other.bytes, service + other.service);
    }

    public Served negated() {
      return new Served(-bytes, -service);
    }

    public boolean isZero() {
      return bytes == 0 && service == 0;
    }
  }

  /**
   * What the scheduler counted for one application on this proxy.
   *
   * @param service what the scheduler shares out: bytes plus the per-request cost of each request
   * @param serviceAsked the same for every request that arrived, served yet or not: what the
   *     application asked for
   * @param backloggedNanos how long it had requests waiting here (a work-conserving scheduler
   *     shares only while applications wait; an application never backlogged was served at once)
   */
  public record AppCounters(
      long bytes,
      long service,
      long requests,
      long queueDelayNanos,
      int queued,
      int outstanding,
      long serviceAsked,
      long backloggedNanos) {}

  private static final class Request {
    final long cost;
    final long bytes;
    final Runnable run;
    final long arrival;

    Request(long cost, long bytes, Runnable run, long arrival) {
      this.cost = cost;
      this.bytes = bytes;
      this.run = run;
      this.arrival = arrival;
    }
  }

  private static final class App {
    final String name;
    final ArrayDeque<Request> queue = new ArrayDeque<>();
    AppSettings settings = AppSettings.DEFAULT;
    double finish;
    double reservationTag;
    double limitTag;
    final Uncharged serviceElsewhere = new Uncharged();
    final Uncharged bytesElsewhere = new Uncharged();
    boolean tagged;
    double headStart;
    double headReservation;
    double headLimit;
    int outstanding;
    long bytes;
    long service;
    long requests;
    long queueDelayNanos;
    long serviceAsked;
    long backloggedNanos;

    /** When its queue last became non-empty. */
    long backloggedSince;

    App(String name) {
      this.name = name;
    }
  }

  /**
   * Service at the other proxies not charged here yet. Totals arrive in batches: a batch is charged
   * over the next requests, not all on one, so one proxy does not stall an application while the
   * others run it (its writes need them all).
   */
  private static final class Uncharged {
    long seen;
    long pending;

    /** Takes the latest total heard; returns what the next request carries (at most one share). */
    long charge(long total, long share) {
      pending += Math.max(0, total - seen);
      seen = total;
      long delta = Math.min(pending, share);
      // what is left is charged later, up to as many requests' worth: service long past (the
      // application was idle here meanwhile) is not held against it for ever
      pending = Math.min(pending - delta, SPREAD * share);
      return delta;
    }
  }

  /** At most this many times a request's own service elsewhere is charged on it. */
  static final int SPREAD = 16;

  private final int depth;
  private final long perRequestCost;
  private final Clock clock;
  private final Timer timer;
  private final Elsewhere elsewhere;
  private final Map<String, App> apps = new HashMap<>();
  private double virtualTime;
  private int outstanding;
  private boolean wakeArmed;
  private Function<String, AppSettings> settingsSource = name -> AppSettings.DEFAULT;

  /**
   * @param depth requests at the data server at once (D)
   * @param perRequestCost bytes a request costs beyond its own (seek and per-request work)
   */
  public FairScheduler(
      int depth, long perRequestCost, Clock clock, Timer timer, Elsewhere elsewhere) {
    if (depth < 1) {
      throw new IllegalArgumentException("depth must be at least 1");
    }
    this.depth = depth;
    this.perRequestCost = perRequestCost;
    this.clock = clock;
    this.timer = timer;
    this.elsewhere = elsewhere;
  }

  /** Applies settings: every application named gets its own, every other one the default. */
  public void configure(Function<String, AppSettings> settings) {
    synchronized (this) {
      apps.forEach(
          (name, app) -> {
            app.settings = settings.apply(name);
            app.tagged = false; // the head waiting now is tagged again under the new settings
          });
      this.settingsSource = settings;
    }
    pump();
  }

  /**
   * Queues a request of {@code bytes}; {@code run} sends it to the data server when its turn comes,
   * and the caller reports its answer with {@link #done}.
   */
  public void submit(String app, long bytes, Runnable run) {
    synchronized (this) {
      App a = apps.computeIfAbsent(app, this::newApp);
      long now = clock.nanos();
      if (a.queue.isEmpty()) {
        a.backloggedSince = now;
      }
      a.queue.add(new Request(bytes + perRequestCost, bytes, run, now));
      a.serviceAsked += bytes + perRequestCost;
    }
    pump();
  }

  /** The data server answered a request of {@code app}: its slot is free. */
  public void done(String app) {
    synchronized (this) {
      App a = apps.get(app);
      if (a != null && a.outstanding > 0) {
        a.outstanding--;
        outstanding--;
      }
    }
    pump();
  }

  /** Dispatches what may go now. */
  public void pump() {
    List<Runnable> go = new ArrayList<>();
    synchronized (this) {
      Runnable next;
      while ((next = dispatchOne()) != null) {
        go.add(next);
      }
    }
    go.forEach(Runnable::run);
  }

  /**
   * Applications to count from now on, at zero until their first request (those with settings of
   * their own): what a proxy shows of them is there before their traffic is.
   */
  public synchronized void expect(Collection<String> names) {
    names.forEach(n -> apps.computeIfAbsent(n, this::newApp));
  }

  /** Per application, what this proxy served and what waits. */
  public synchronized Map<String, AppCounters> counters() {
    Map<String, AppCounters> out = new LinkedHashMap<>();
    long now = clock.nanos();
    apps.forEach(
        (name, a) ->
            out.put(
                name,
                new AppCounters(
                    a.bytes,
                    a.service,
                    a.requests,
                    a.queueDelayNanos,
                    a.queue.size(),
                    a.outstanding,
                    a.serviceAsked,
                    a.backloggedNanos + (a.queue.isEmpty() ? 0 : now - a.backloggedSince))));
    return out;
  }

  private App newApp(String name) {
    App a = new App(name);
    a.settings = settingsSource.apply(name);
    a.finish = virtualTime;
    Served there = elsewhere.served(name);
    a.serviceElsewhere.seen = there.service();
    a.bytesElsewhere.seen = there.bytes();
    return a;
  }

  /** Picks and starts one request, or null when none may go now. Under the lock. */
  private Runnable dispatchOne() {
    if (outstanding >= depth) {
      return null;
    }
    long now = clock.nanos();
    App pick = null;
    boolean forReservation = false;
    double nextDue = Double.MAX_VALUE;
    int free = depth - outstanding;
    int keptFree = slotsKeptFree();
    for (App a : apps.values()) {
      if (a.queue.isEmpty()) {
        continue;
      }
      tagHead(a);
      if (a.settings.reservationBytesPerSec() > 0 && a.headReservation <= now) {
        if (!forReservation || a.headReservation < pick.headReservation) {
          pick = a;
          forReservation = true;
        }
        continue;
      }
      if (forReservation) {
        continue;
      }
      if (a.settings.limitBytesPerSec() > 0 && a.headLimit > now) {
        nextDue = Math.min(nextDue, a.headLimit);
        continue;
      }
      if (keptFree > 0 && free <= keptFree && a.settings.workConserving()) {
        continue; // the last slots are kept for applications that are not work conserving
      }
      if (pick == null || a.headStart < pick.headStart) {
        pick = a;
      }
    }
    if (pick == null) {
      if (nextDue != Double.MAX_VALUE && !wakeArmed) {
        wakeArmed = true;
        timer.wakeAfter(
            Math.max(0, (long) (nextDue - now)),
            () -> {
              synchronized (this) {
                wakeArmed = false;
              }
              pump();
            });
      }
      return null;
    }
    Request r = pick.queue.poll();
    pick.tagged = false;
    if (!forReservation) {
      virtualTime = Math.max(virtualTime, pick.headStart);
      pick.finish = pick.headStart + r.cost / pick.settings.weight();
    }
    if (pick.settings.reservationBytesPerSec() > 0) {
      pick.reservationTag = pick.headReservation;
    }
    if (pick.settings.limitBytesPerSec() > 0) {
      pick.limitTag = pick.headLimit;
    }
    pick.outstanding++;
    outstanding++;
    pick.bytes += r.bytes;
    pick.service += r.cost;
    pick.requests++;
    pick.queueDelayNanos += now - r.arrival;
    if (pick.queue.isEmpty()) {
      pick.backloggedNanos += now - pick.backloggedSince;
    }
    return r.run;
  }

  /** Tags the head of an application's queue (once, when it becomes the head). */
  private void tagHead(App a) {
    if (a.tagged) {
      return;
    }
    Request head = a.queue.peek();
    AppSettings s = a.settings;
    Served there = elsewhere.served(a.name);
    long service = a.serviceElsewhere.charge(there.service(), SPREAD * head.cost);
    long delta =
        a.bytesElsewhere.charge(there.bytes(), SPREAD * Math.max(head.bytes, perRequestCost));
    a.headStart = Math.max(virtualTime, a.finish + service / s.weight());
    a.headReservation =
        s.reservationBytesPerSec() > 0
            ? Math.max(
                a.reservationTag + nanosFor(head.bytes + delta, s.reservationBytesPerSec()),
                head.arrival)
            : Double.MAX_VALUE;
    a.headLimit =
        s.limitBytesPerSec() > 0
            ? Math.max(
                a.limitTag + nanosFor(head.bytes + delta, s.limitBytesPerSec()), head.arrival)
            : 0;
    a.tagged = true;
  }

  /**
   * Slots kept for applications that are not work conserving: each one's share of D by weight (at
   * least one) that it does not use now. Others never take them, so a burst finds them free and
   * does not queue at the data server behind others' requests.
   */
  private int slotsKeptFree() {
    double total = 0;
    for (App a : apps.values()) {
      total += a.settings.weight();
    }
    int kept = 0;
    for (App a : apps.values()) {
      if (!a.settings.workConserving()) {
        int share = (int) Math.max(1, Math.round(depth * a.settings.weight() / total));
        kept += Math.max(0, share - a.outstanding);
      }
    }
    return Math.min(kept, depth - 1);
  }

  private static double nanosFor(long bytes, long bytesPerSec) {
    return bytes * 1e9 / bytesPerSec;
  }
}
