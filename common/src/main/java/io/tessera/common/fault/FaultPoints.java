package io.tessera.common.fault;

import io.tessera.common.config.Durations;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Named places in product code where a test can make a crash, a tear or a pause happen. A point
 * does nothing until a test arms it, so product code pays one lookup in an empty map. A test in the
 * same JVM arms an action for one scope (e.g. one client, so other clients in the test are not
 * touched); a test that starts processes arms a pause with the system property {@code
 * -Dtessera.fault.<point>=<duration>} on that process's command line.
 */
public final class FaultPoints {
  /** System-property prefix arming a pause in a process started by a test. */
  public static final String PROPERTY_PREFIX = "tessera.fault.";

  private record Armed(String point, Object scope) {}

  private static final Map<Armed, Runnable> ACTIONS = new ConcurrentHashMap<>();

  private FaultPoints() {}

  /**
   * Arms {@code action} at {@code point} for calls made on behalf of {@code scope} (the object the
   * product code names there, e.g. its client). Throwing from the action fails the caller there, as
   * a crash would.
   */
  public static void arm(String point, Object scope, Runnable action) {
    ACTIONS.put(new Armed(point, Objects.requireNonNull(scope)), Objects.requireNonNull(action));
  }

  /** Disarms what {@link #arm} set at {@code point} for {@code scope}. */
  public static void disarm(String point, Object scope) {
    ACTIONS.remove(new Armed(point, scope));
  }

  /** Disarms every point armed for {@code scope} (its owner closes). */
  public static void disarmAll(Object scope) {
    ACTIONS.keySet().removeIf(a -> a.scope().equals(scope));
  }

  /**
   * The action armed at {@code point} for {@code scope}, or null: callers that change their course
   * when armed.
   */
  public static Runnable armed(String point, Object scope) {
    return ACTIONS.isEmpty() ? null : ACTIONS.get(new Armed(point, scope));
  }

  /** Runs the action armed at {@code point} for {@code scope}, if any. */
  public static void reach(String point, Object scope) {
    Runnable action = armed(point, scope);
    if (action != null) {
      action.run();
    }
  }

  /**
   * The pause armed at {@code point} for this process by the system property {@code
   * tessera.fault.<point>}; zero when unarmed.
   *
   * @throws IllegalArgumentException when the property is not a duration (a test's mistake)
   */
  public static Duration pauseAt(String point) {
    String value = System.getProperty(PROPERTY_PREFIX + point);
    return value == null ? Duration.ZERO : Durations.parse(value);
  }
}
