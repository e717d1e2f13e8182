package io.tessera.common.dataio;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ServedElsewhereProto;
import io.tessera.common.proto.ShardRangeProto;
import org.junit.jupiter.api.Test;

/**
 * Each request tells its destination what its caller sent elsewhere since the last request there,
 * so a proxy charges an application for its service at the other servers without asking them.
 */
class ServedElsewhereTest {
  private static ServedElsewhereProto delta(long bytes, long requests) {
    return ServedElsewhereProto.newBuilder().setBytes(bytes).setRequests(requests).build();
  }

  @Test
  void aRequestCarriesWhatWentToOtherAddressesSinceTheLastOneHere() {
    ServedElsewhere sent = new ServedElsewhere();
    assertThat(sent.send("proxy-1", 100)).isEqualTo(delta(0, 0));
    assertThat(sent.send("proxy-2", 50)).isEqualTo(delta(0, 0)); // first request there
    sent.send("proxy-2", 50);
    sent.send("proxy-3", 7);
    assertThat(sent.send("proxy-1", 100)).isEqualTo(delta(107, 3));
    assertThat(sent.send("proxy-1", 100)).isEqualTo(delta(0, 0));
    assertThat(sent.send("proxy-2", 1)).isEqualTo(delta(207, 3));
  }

  @Test
  void aReadMovesWhatItAsksForAndAWriteWhatItCarries() {
    DataRequestProto read =
        DataRequestProto.newBuilder()
            .setRead(
                ReadShardsRequestProto.newBuilder()
                    .addRanges(ShardRangeProto.newBuilder().setLength(4096))
                    .addRanges(ShardRangeProto.newBuilder().setLength(1000)))
            .build();
    assertThat(RequestBytes.of(read, 0)).isEqualTo(5096);
    assertThat(RequestBytes.of(DataRequestProto.getDefaultInstance(), 1 << 20)).isEqualTo(1 << 20);
  }
}
