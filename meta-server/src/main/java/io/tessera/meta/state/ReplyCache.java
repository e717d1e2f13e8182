package io.tessera.meta.state;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.proto.MetaResponseProto;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers the reply to each recent change by (client id, call id), on every replica, so a client
 * that retries after a leader change gets the first outcome instead of applying the change twice (a
 * retried create would otherwise fail with EXISTS). Bounded; the oldest entries go first. Entries
 * are lost on restart, as are the clients' retries.
 *
 * <p>Replies are kept serialized: every entry outlives many young collections, and a create's reply
 * as objects (response, inode, layout, lists) is several times its bytes and as many objects for
 * the collector to copy and trace. Only a retry, which is rare, parses one back.
 */
final class ReplyCache {
  private record Key(ByteString client, long call) {}

  private final Map<Key, byte[]> entries;

  ReplyCache(int capacity) {
    entries =
        new LinkedHashMap<>(1024, 0.75f, false) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, byte[]> eldest) {
            return size() > capacity;
          }
        };
  }

  MetaResponseProto get(ByteString client, long call) {
    if (client.isEmpty() || call == 0) {
      return null;
    }
    byte[] reply;
    synchronized (this) {
      reply = entries.get(new Key(client, call));
    }
    try {
      return reply == null ? null : MetaResponseProto.parseFrom(reply);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a cached reply no longer parses", e);
    }
  }

  void put(ByteString client, long call, MetaResponseProto reply) {
    if (!client.isEmpty() && call != 0) {
      byte[] bytes = reply.toByteArray();
      synchronized (this) {
        entries.put(new Key(client, call), bytes);
      }
    }
  }
}
