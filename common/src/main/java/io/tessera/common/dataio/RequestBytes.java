package io.tessera.common.dataio;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import java.util.List;

/** The bytes a data.proto request moves, as QoS counts them: what it carries plus what it reads. */
public final class RequestBytes {
  private RequestBytes() {}

  public static long of(DataRequestProto request, long payloadBytes) {
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
