package io.tessera.common.platform;

import java.time.Instant;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Where a server's start went, counted from its JVM's start (as the OS recorded it): the JVM and
 * class loading up to the server's start call, then each phase the server marks. Its log's
 * "serving" line ends with the account, so a slow start says what was slow.
 */
public final class StartupTimer {
  private final long jvmStartMs;
  private final StringJoiner phases = new StringJoiner(", ");
  private long last;

  private StartupTimer(long jvmStartMs, long nowMs) {
    this.jvmStartMs = jvmStartMs;
    this.last = nowMs;
    phases.add("JVM and classes " + seconds(nowMs - jvmStartMs));
  }

  /** A timer whose first phase ran from this JVM's start until now (the server's start call). */
  public static StartupTimer sinceJvmStart() {
    long now = System.currentTimeMillis();
    return new StartupTimer(jvmStart(now), now);
  }

  /** When the OS started this JVM, in ms (now, when it does not say). */
  private static long jvmStart(long now) {
    return Math.min(
        now, ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(now));
  }

  /** Ends the phase called {@code name}, which ran since the last mark. */
  public void mark(String name) {
    long now = System.currentTimeMillis();
    phases.add(name + " " + seconds(now - last));
    last = now;
  }

  /** Seconds since the JVM started, as "4.2 s". */
  public String sinceStart() {
    return seconds(System.currentTimeMillis() - jvmStartMs);
  }

  /**
   * Seconds since this JVM started, as "4.2 s": when a later event of a start (a first contact)
   * came.
   */
  public static String sinceJvmStarted() {
    long now = System.currentTimeMillis();
    return seconds(now - jvmStart(now));
  }

  /** "7.1 s after its JVM started: JVM and classes 3.0 s, ..." */
  public String account() {
    return sinceStart() + " after its JVM started: " + phases;
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
