package io.tessera.client.admin;

import io.tessera.common.proto.QosAppProto;

/**
 * One application's QoS settings.
 *
 * @param weight its proportion of service while applications compete (positive)
 * @param reservationBytesPerSec a floor it gets first (0: none)
 * @param limitBytesPerSec a ceiling it never exceeds, even on an idle cluster (0: none)
 * @param workConserving whether others may use its share while it is idle (false keeps room for a
 *     bursty application's next burst)
 */
public record QosApp(
    String app,
    double weight,
    long reservationBytesPerSec,
    long limitBytesPerSec,
    boolean workConserving) {
  /** Settings of an application nobody configured. */
  public static QosApp defaults(String app) {
    return new QosApp(app, 1, 0, 0, true);
  }

  static QosApp of(QosAppProto p) {
    return new QosApp(
        p.getApp(),
        p.getWeight(),
        p.getReservationBytesPerS(),
        p.getLimitBytesPerS(),
        !p.getNotWorkConserving());
  }

  QosAppProto toProto() {
    return QosAppProto.newBuilder()
        .setApp(app)
        .setWeight(weight)
        .setReservationBytesPerS(reservationBytesPerSec)
        .setLimitBytesPerS(limitBytesPerSec)
        .setNotWorkConserving(!workConserving)
        .build();
  }
}
