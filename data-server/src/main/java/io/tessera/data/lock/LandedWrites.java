package io.tessera.data.lock;

import com.google.protobuf.ByteString;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The locks of the last {@link #KEPT} phase-2 writes that landed here. A writer whose phase 2 timed
 * out (its reply lost, or queued past the client's call timeout behind a busy server or QoS proxy)
 * sends the same request again; finding the lock gone, the server would refuse it LOCK_LOST and the
 * writer would write the whole stripe group again. A resend of a write that landed is answered as
 * the write was, like an NFS server's duplicate request cache.
 */
final class LandedWrites {
  static final int KEPT = 65_536;

  private final Map<ByteString, Boolean> landed =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteString, Boolean> eldest) {
          return size() > KEPT;
        }
      };

  void landed(byte[] lockKey) {
    landed.put(ByteString.copyFrom(lockKey), Boolean.TRUE);
  }

  boolean contains(byte[] lockKey) {
    return landed.containsKey(ByteString.copyFrom(lockKey));
  }
}
