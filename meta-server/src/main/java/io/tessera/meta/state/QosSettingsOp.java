package io.tessera.meta.state;

import io.tessera.common.cluster.AppIds;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.QosAppProto;
import io.tessera.common.proto.QosSettingsProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/**
 * Sets one application's QoS settings (weight, reservation, limit, work conserving), replicated so
 * that they survive restarts and leader changes; the proxies read them from the meta group.
 */
final class QosSettingsOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of();
  }

  @Override
  public MetaRequestProto prepare(MetaRequestProto req, Leader leader) {
    check(req.getQosSet().getApp(), req.getQosSet().getReset());
    return req;
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    Permissions.requireAdmin(Actor.of(req.getActor()), "change QoS settings");
    QosAppProto app = req.getQosSet().getApp();
    check(app, req.getQosSet().getReset());
    tx.setQos(app, req.getQosSet().getReset());
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setQos(QosSettingsProto.newBuilder().addApps(app))
        .build();
  }

  private static void check(QosAppProto app, boolean reset) {
    String name = app.getApp();
    if (!AppIds.valid(name)) {
      throw new NamespaceException(StatusProto.INVALID_ARGUMENT, AppIds.whyInvalid(name));
    }
    if (reset) {
      return;
    }
    if (!(app.getWeight() > 0) || Double.isInfinite(app.getWeight())) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "weight of " + name + " must be a positive number, not " + app.getWeight());
    }
    if (app.getLimitBytesPerS() > 0 && app.getReservationBytesPerS() > app.getLimitBytesPerS()) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "reservation of " + name + " exceeds its limit: the limit must be at least the floor");
    }
  }
}
