package io.tessera.common.dataio;

import io.tessera.common.proto.ServedElsewhereProto;
import java.util.HashMap;
import java.util.Map;

/**
 * What one caller sent to each address, kept so that every request can tell its destination what
 * the caller sent elsewhere since its last request there (dmClock's delta). A QoS proxy adds up
 * these deltas over an application's callers: its service at every other server, with no messages
 * between proxies.
 */
public final class ServedElsewhere {
  private long bytes;
  private long requests;
  private final Map<String, long[]> lastSent = new HashMap<>();

  /** Counts a request of {@code requestBytes} to {@code address}; returns what went elsewhere. */
  public synchronized ServedElsewhereProto send(String address, long requestBytes) {
    long[] last = lastSent.computeIfAbsent(address, a -> new long[] {bytes, requests});
    ServedElsewhereProto delta =
        ServedElsewhereProto.newBuilder()
            .setBytes(bytes - last[0])
            .setRequests(requests - last[1])
            .build();
    bytes += requestBytes;
    requests++;
    last[0] = bytes;
    last[1] = requests;
    return delta;
  }
}
