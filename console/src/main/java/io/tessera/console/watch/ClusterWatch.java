package io.tessera.console.watch;

import io.tessera.client.admin.ClusterAdmin;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.platform.DaemonTimer;
import java.io.Closeable;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples cluster status every {@link #INTERVAL_SECONDS} s for the overview's charts (the last
 * {@link #KEPT_SAMPLES} samples: ten minutes) and notes what changed between samples as events:
 * data servers changing state, joining, the meta leader changing, the meta group not answering.
 */
public final class ClusterWatch implements Closeable {
  static final int INTERVAL_SECONDS = 2;
  static final int KEPT_SAMPLES = 300;
  static final int KEPT_EVENTS = 500;

  /** One sample of the whole cluster's load and space. */
  public record Sample(
      long timeMs,
      long bytesPerSecond,
      long requestsPerSecond,
      long usedBytes,
      long freeBytes,
      long capacityBytes,
      int serversUp,
      int servers) {}

  /** Something the console saw change. */
  public record Event(long timeMs, String kind, String subject, String message) {}

  private final ClusterAdmin admin;
  private final ScheduledExecutorService timer = DaemonTimer.named("console-watch");
  private final ArrayDeque<Sample> samples = new ArrayDeque<>();
  private final ArrayDeque<Event> events = new ArrayDeque<>();
  private Map<String, String> states;
  private String leader;
  private boolean answering = true;

  public ClusterWatch(ClusterAdmin admin) {
    this.admin = admin;
  }

  public void start() {
    timer.scheduleWithFixedDelay(this::sample, 0, INTERVAL_SECONDS, TimeUnit.SECONDS);
  }

  /** Samples, oldest first. */
  public synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  /** Events, newest first, at most {@code limit}. */
  public synchronized List<Event> events(int limit) {
    return events.stream().limit(limit).toList();
  }

  private void sample() {
    ClusterStatus s;
    try {
      s = admin.status();
    } catch (Exception e) {
      synchronized (this) {
        if (answering) {
          event("meta", "meta group", "did not answer: " + e.getMessage());
          answering = false;
        }
      }
      return;
    }
    record(s, System.currentTimeMillis());
  }

  synchronized void record(ClusterStatus s, long now) {
    if (!answering) {
      event(now, "meta", "meta group", "answers again");
      answering = true;
    }
    long bytes = 0;
    long requests = 0;
    long used = 0;
    ClusterStatus.Space space = s.space(); // each filesystem once
    int up = 0;
    Map<String, String> byServer = new TreeMap<>(); // events in server order
    for (ClusterStatus.DataServer d : s.dataServers()) {
      byServer.put(d.id(), d.state());
      if (d.state().equals("retired")) {
        continue;
      }
      bytes += d.clientBytesPerSecond();
      requests += d.clientRequestsPerSecond();
      used += d.usedBytes();
      up += d.up() ? 1 : 0;
    }
    samples.addLast(
        new Sample(
            now,
            bytes,
            requests,
            used,
            space.freeBytes(),
            space.capacityBytes(),
            up,
            s.dataServers().size()));
    while (samples.size() > KEPT_SAMPLES) {
      samples.removeFirst();
    }
    if (states != null) {
      for (Map.Entry<String, String> e : byServer.entrySet()) {
        String before = states.get(e.getKey());
        if (before == null) {
          event(now, "server", e.getKey(), "joined, " + e.getValue());
        } else if (!before.equals(e.getValue())) {
          event(now, "server", e.getKey(), before + " -> " + e.getValue());
        }
      }
    }
    states = byServer;
    String nowLeader = s.leaderId();
    if (leader != null && !leader.equals(nowLeader)) {
      event(
          now,
          "meta",
          "meta group",
          nowLeader.isEmpty() ? "no leader (election under way)" : "leader is now " + nowLeader);
    }
    leader = nowLeader;
  }

  private void event(String kind, String subject, String message) {
    event(System.currentTimeMillis(), kind, subject, message);
  }

  private void event(long timeMs, String kind, String subject, String message) {
    events.addFirst(new Event(timeMs, kind, subject, message));
    while (events.size() > KEPT_EVENTS) {
      events.removeLast();
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
