package io.tessera.meta.ratis;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.MetaResponseProto;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers the reply to each recent change by (client id, call id), on every replica, so a
 * client that retries after a leader change gets the first outcome instead of applying the
 * change twice (a retried create would otherwise fail with EXISTS). Bounded; the oldest
 * entries go first. Entries are lost on restart, as are the clients' retries.
 */
final class ReplyCache {
  private record Key(ByteString client, long call) {}

  private final Map<Key, MetaResponseProto> entries;

  ReplyCache(int capacity) {
    entries = new LinkedHashMap<>(1024, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, MetaResponseProto> eldest) {
        return size() > capacity;
      }
    };
  }

  synchronized MetaResponseProto get(ByteString client, long call) {
    return client.isEmpty() || call == 0 ? null : entries.get(new Key(client, call));
  }

  synchronized void put(ByteString client, long call, MetaResponseProto reply) {
    if (!client.isEmpty() && call != 0) {
      entries.put(new Key(client, call), reply);
    }
  }
}
