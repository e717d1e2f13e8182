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
   */
  public record App(
      QosApp settings,
      double targetShare,
      double achievedShare,
      double bytesPerSecond,
      long requests,
      double queueDelayMillis,
      Map<String, Double> bytesPerSecondByProxy) {}
}
