package io.tessera.qos.sched;

/**
 * One application's share of a data server's service: a weight (its proportion when busy), a
 * reservation (a floor it gets first, bytes per second, 0 for none), a limit (a ceiling, bytes per
 * second, 0 for none), and whether others may use its share while it is idle.
 */
public record AppSettings(
    double weight, long reservationBytesPerSec, long limitBytesPerSec, boolean workConserving) {
  /** What an application nobody configured gets. */
  public static final AppSettings DEFAULT = new AppSettings(1, 0, 0, true);

  public AppSettings {
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("weight must be a positive number, not " + weight);
    }
    if (reservationBytesPerSec < 0 || limitBytesPerSec < 0) {
      throw new IllegalArgumentException("reservation and limit cannot be negative");
    }
    if (limitBytesPerSec > 0 && reservationBytesPerSec > limitBytesPerSec) {
      throw new IllegalArgumentException(
          "reservation ("
              + reservationBytesPerSec
              + " B/s) exceeds the limit ("
              + limitBytesPerSec
              + " B/s)");
    }
  }
}
