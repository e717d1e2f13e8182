package io.tessera.cli.qos;

import io.tessera.common.cluster.AppIds;
import io.tessera.common.config.DataSize;

/** The qos commands' checks of the values they are given, before the cluster is asked. */
final class QosArguments {
  private QosArguments() {}

  /** Refuses an application name no request could carry. */
  static void checkApp(String app) {
    if (!AppIds.valid(app)) {
      throw new IllegalArgumentException(AppIds.whyInvalid(app));
    }
  }

  /** Refuses a weight that is not a positive, finite number; null (not given) passes. */
  static void checkWeight(Double weight) {
    if (weight != null && !(weight > 0 && Double.isFinite(weight))) {
      throw new IllegalArgumentException(
          "--weight " + weight + ": a weight is a positive number, such as 0.5, 1 or 4");
    }
  }

  /** Bytes per second from a size such as 10M; 0 for none. */
  static long rate(String option, String value) {
    try {
      return DataSize.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          option + " " + value + ": not a size in bytes per second (write it like 10M or 1G)");
    }
  }
}
