package io.tessera.meta.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import org.junit.jupiter.api.Test;

class ReplyCacheTest {
  private static final ByteString CLIENT = ByteString.copyFromUtf8("client-1");

  private static MetaResponseProto created(long inode) {
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setIndex(inode * 10)
        .setInode(
            InodeProto.newBuilder()
                .setId(inode)
                .setMode(0644)
                .setLayout(
                    LayoutProto.newBuilder()
                        .setStripeUnit(1 << 20)
                        .setDataUnits(6)
                        .addServers("ds-1")
                        .addServers("ds-2")))
        .build();
  }

  @Test
  void aRetriedCreateGetsTheFirstReplyBackWholeNotANewOutcome() {
    ReplyCache cache = new ReplyCache(10);
    cache.put(CLIENT, 7, created(42));

    assertThat(cache.get(CLIENT, 7)).isEqualTo(created(42));
    assertThat(cache.get(CLIENT, 8)).as("another call of the same client").isNull();
    assertThat(cache.get(ByteString.copyFromUtf8("client-2"), 7))
        .as("the same call id of another client")
        .isNull();
  }

  @Test
  void theOldestRepliesGoFirstOnceTheCacheIsFull() {
    ReplyCache cache = new ReplyCache(3);
    for (long call = 1; call <= 5; call++) {
      cache.put(CLIENT, call, created(call));
    }

    assertThat(cache.get(CLIENT, 1)).isNull();
    assertThat(cache.get(CLIENT, 2)).isNull();
    assertThat(cache.get(CLIENT, 3)).isEqualTo(created(3));
    assertThat(cache.get(CLIENT, 5)).isEqualTo(created(5));
  }

  @Test
  void requestsWithoutAClientOrCallIdAreNeverTakenForRetries() {
    ReplyCache cache = new ReplyCache(10);
    cache.put(ByteString.EMPTY, 7, created(1));
    cache.put(CLIENT, 0, created(2));

    assertThat(cache.get(ByteString.EMPTY, 7)).isNull();
    assertThat(cache.get(CLIENT, 0)).isNull();
  }
}
