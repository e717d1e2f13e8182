package io.tessera.qos.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import org.junit.jupiter.api.Test;

/**
 * A proxy schedules by the application a request names and the bytes it moves; names it could not
 * tell apart, or more names than it keeps, share one queue instead of growing its state.
 */
class RequestCostTest {
  private static DataRequestProto from(String app) {
    return DataRequestProto.newBuilder().setCaller(CallerProto.newBuilder().setAppId(app)).build();
  }

  @Test
  void aReadCostsWhatItAsksForAndAWriteWhatItCarries() {
    DataRequestProto read =
        DataRequestProto.newBuilder()
            .setRead(
                ReadShardsRequestProto.newBuilder()
                    .addRanges(ShardRangeProto.newBuilder().setLength(4096))
                    .addRanges(ShardRangeProto.newBuilder().setLength(1000)))
            .build();
    assertThat(RequestCost.bytes(read, 0)).isEqualTo(5096);
    assertThat(RequestCost.bytes(from("x"), 1 << 20)).isEqualTo(1 << 20);
  }

  @Test
  void oddOrTooManyApplicationNamesShareOneQueue() {
    RequestCost costs = new RequestCost();
    assertThat(costs.app(from(""))).isEqualTo(RequestCost.DEFAULT);
    assertThat(costs.app(from("checkpoint"))).isEqualTo("checkpoint");
    assertThat(costs.app(from("with spaces"))).isEqualTo(RequestCost.OTHER);
    assertThat(costs.app(from("x".repeat(200)))).isEqualTo(RequestCost.OTHER);
    for (int i = 0; i < RequestCost.MAX_APPS; i++) {
      costs.app(from("app-" + i));
    }
    assertThat(costs.app(from("one-too-many"))).isEqualTo(RequestCost.OTHER);
    assertThat(costs.app(from("checkpoint"))).isEqualTo("checkpoint");
  }
}
