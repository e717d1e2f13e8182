package io.tessera.qos.proxy;

import io.tessera.common.cluster.AppIds;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the scheduler needs of a data.proto request, from its header alone: whose it is and how many
 * bytes it moves. Application names are bounded: an unknown name beyond {@link #MAX_APPS}, or one
 * no setting could name, is scheduled as {@link #OTHER}.
 */
final class RequestCost {
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

  /** Bytes the request moves: what it carries, plus what it asks to read. */
  static long bytes(DataRequestProto request, int payloadBytes) {
    return payloadBytes
        + switch (request.getOpCase()) {
          case READ -> readBytes(request.getRead().getRangesList());
          case LOCK_READ -> readBytes(request.getLockRead().getReadsList());
          default -> 0;
        };
  }

  private static long readBytes(List<ShardRangeProto> ranges) {
    long sum = 0;
    for (ShardRangeProto r : ranges) {
      sum += r.getLength();
    }
    return sum;
  }
}
