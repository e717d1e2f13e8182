package io.tessera.console.api;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.tessera.client.admin.QosAdmin;
import io.tessera.client.admin.QosApp;
import io.tessera.client.admin.QosStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** QoS settings per application and the shares the proxies achieve (when there are proxies). */
public final class QosRoutes {
  private static final Duration WINDOW = Duration.ofSeconds(2);

  private final QosAdmin qos;
  private final Actions actions;

  public QosRoutes(QosAdmin qos, Actions actions) {
    this.qos = qos;
    this.actions = actions;
  }

  /** Settings, and what the proxies served over the last seconds (null without proxies). */
  public record View(List<QosApp> settings, QosStatus achieved) {}

  /** New settings of one application; absent fields keep the defaults. */
  public record Settings(
      Double weight, Long reservationBytesPerSec, Long limitBytesPerSec, Boolean workConserving) {}

  public void register(RoutesConfig routes) {
    routes.get("/api/v1/qos", this::view);
    routes.put("/api/v1/qos/{app}", this::set);
  }

  private void view(Context ctx) throws IOException {
    QosStatus achieved = qos.status(WINDOW);
    ctx.json(new View(qos.list(), achieved.proxies().isEmpty() ? null : achieved));
  }

  private void set(Context ctx) throws IOException {
    String app = ctx.pathParam("app");
    Settings s = Requests.body(ctx, Settings.class);
    QosApp d = QosApp.defaults(app);
    QosApp next =
        new QosApp(
            app,
            s.weight() != null ? s.weight() : d.weight(),
            s.reservationBytesPerSec() != null ? s.reservationBytesPerSec() : 0,
            s.limitBytesPerSec() != null ? s.limitBytesPerSec() : 0,
            s.workConserving() != null ? s.workConserving() : d.workConserving());
    actions.run(
        ctx,
        "qos.set",
        app,
        Actions.Audit.BY_META_GROUP,
        as -> {
          as.qos().set(next);
          return next;
        });
  }
}
