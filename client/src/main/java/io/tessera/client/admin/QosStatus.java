package io.tessera.client.admin;

import java.util.List;
import java.util.Map;

/**
 * What the QoS proxies served over one window, summed over all of them.
 *
 * @param windowMillis how long the proxies were watched
 * @param apps per application that was served, or has settings
 * @param proxies the proxies that answered
 * @param unreachable proxies that did not answer (their service is missing from the figures)
 * @param exchangeBytesPerSecond what the proxies sent each other in service totals, all together
 * @param settingsEverywhere every proxy that answered applies the settings the meta group holds
 */
public record QosStatus(
    long windowMillis,
    List<App> apps,
    List<String> proxies,
    List<String> unreachable,
    double exchangeBytesPerSecond,
    boolean settingsEverywhere) {
  /**
   * One application over the window.
   *
   * @param targetShare its weight over the weights of the applications served in the window
   * @param achievedShare its service (bytes plus a per-request cost, what the proxies share out)
   *     over all service in the window
   * @param queueDelayMillis mean time its requests waited in the proxies
   * @param bytesPerSecondByProxy what each proxy served it
   * @param askedShare the service its arriving requests asked for over all asked in the window
   * @param waitingFraction how much of the window it had requests waiting at the proxies that
   *     served it (averaged over them): near 0, it was never contended and every request went on at
   *     once, so the scheduler had nothing to share out and its target could not show
   */
  public record App(
      QosApp settings,
      double targetShare,
      double achievedShare,
      double bytesPerSecond,
      long requests,
      double queueDelayMillis,
      Map<String, Double> bytesPerSecondByProxy,
      double askedShare,
      double waitingFraction) {
    /** Below this much of the window spent waiting, an application was not contended. */
    public static final double CONTENDED = 0.05;

    /** Whether its requests waited at the proxies long enough for its weight to matter. */
    public boolean contended() {
      return waitingFraction >= CONTENDED;
    }
  }
}
