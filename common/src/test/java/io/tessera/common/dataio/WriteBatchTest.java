package io.tessera.common.dataio;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * A write to one server carries its ranges and, in the same order, exactly their bytes; a range
 * says it replaces the whole unit only when its writer says so (recovery's short last units do).
 */
class WriteBatchTest {
  @Test
  void rangesAndTheirBytesGoTogetherInOrder() {
    byte[] a = {1, 2, 3, 4, 5, 6};
    byte[] b = {9, 8, 7};
    WriteBatch w = new WriteBatch(WriteShardsRequestProto.newBuilder().setSync(true), 2);
    w.add(7, 0, 1, 0, a, 2, 3, false);
    w.addEmpty(
        ShardRangeProto.newBuilder().setFileId(7).setStripe(1).setUnit(1).setHole(true).build());
    w.add(7, 2, 1, 0, b, 0, 3, true);
    WriteShardsRequestProto r = w.request().build();
    assertThat(r.getSync()).isTrue();
    assertThat(r.getRangesList())
        .extracting(ShardRangeProto::getStripe, ShardRangeProto::getCoversUnit)
        .containsExactly(Tuple.tuple(0L, false), Tuple.tuple(1L, false), Tuple.tuple(2L, true));
    assertThat(ByteBufUtil.getBytes(w.payload())).containsExactly(3, 4, 5, 9, 8, 7);
    assertThat(w.bytes()).isEqualTo(6);
    w.payload().release();
  }
}
