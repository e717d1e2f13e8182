package io.tessera.nfs.oncrpc;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * At most one line per interval for an event a client can cause at will (a garbled record): the
 * next line says how many were left out, so a flood of bad input is one line every few seconds.
 */
final class QuietLog {
  private final Logger log;
  private final long intervalNanos;
  private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong skipped = new AtomicLong();

  QuietLog(Logger log, long intervalMillis) {
    this.log = log;
    this.intervalNanos = intervalMillis * 1_000_000;
  }

  void warn(String format, Object... args) {
    long now = System.nanoTime();
    long due = next.get();
    if ((due != Long.MIN_VALUE && now - due < 0) || !next.compareAndSet(due, now + intervalNanos)) {
      skipped.incrementAndGet();
      return;
    }
    long left = skipped.getAndSet(0);
    log.warn(left == 0 ? format : format + " (and " + left + " more like it since)", args);
  }
}
