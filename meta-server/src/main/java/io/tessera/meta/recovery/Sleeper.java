package io.tessera.meta.recovery;

/**
 * Waits a number of nanoseconds: {@link #REAL} sleeps; tests pass one that moves a clock of their
 * own.
 */
interface Sleeper {
  Sleeper REAL = nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));

  void sleep(long nanos) throws InterruptedException;
}
