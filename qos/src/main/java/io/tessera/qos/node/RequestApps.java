package io.tessera.qos.node;

import io.tessera.common.cluster.AppIds;
import io.tessera.common.proto.DataRequestProto;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whose a data.proto request is, from its header alone. Application names are bounded: an unknown
 * name beyond {@link #MAX_APPS}, or one no setting could name, is scheduled as {@link #OTHER}.
 */
final class RequestApps {
  static final int MAX_APPS = 1024;
  static final String DEFAULT = "default";
  static final String OTHER = "(other)";

  private final Set<String> known = ConcurrentHashMap.newKeySet();

  /** The application a request is scheduled as. */
  String app(DataRequestProto request) {
    String app = request.getCaller().getAppId();
    if (app.isEmpty()) {
      return DEFAULT;
    }
    if (!AppIds.valid(app)) {
      return OTHER;
    }
    if (known.contains(app)) {
      return app;
    }
    if (known.size() >= MAX_APPS) {
      return OTHER;
    }
    known.add(app);
    return app;
  }
}
