package io.tessera.common.dataio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.status.TesseraException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A read reply is used only once it matches what was asked, whether copied out or kept in place.
 */
class ReadBatchTest {
  private static ReadBatch twoRanges(byte[] into) {
    ReadBatch batch = new ReadBatch("ds-1");
    batch.add(7, 0, 0, 0, 4, into, 0, "first");
    batch.add(7, 0, 1, 0, 6, into, 4, "second");
    return batch;
  }

  private static DataResponseProto reply(int first, int second, ShardStateProto secondState) {
    return DataResponseProto.newBuilder()
        .setRead(
            ReadShardsResponseProto.newBuilder()
                .addStates(ShardStateProto.SHARD_STORED)
                .addStates(secondState)
                .addStoredLengths(first)
                .addStoredLengths(second))
        .build();
  }

  private static ByteBuf payload(String s) {
    return Unpooled.copiedBuffer(s.getBytes());
  }

  @Test
  void copiedRangesGetWhatTheServerStoredAndZerosPastIt() throws Exception {
    byte[] into = new byte[10];
    Arrays.fill(into, (byte) 'x');
    ByteBuf payload = payload("abcdEF");
    assertThat(twoRanges(into).accept(reply(4, 2, ShardStateProto.SHARD_STORED), payload))
        .isEmpty();
    assertThat(into).isEqualTo(new byte[] {'a', 'b', 'c', 'd', 'E', 'F', 0, 0, 0, 0});
    assertThat(payload.refCnt()).as("payload released").isZero();
  }

  @Test
  void keptRangesAreExactlyAsLongAsAskedWithZerosPastWhatWasStored() throws Exception {
    ByteBuf payload = payload("abcdEF");
    List<ByteBuf> kept = twoRanges(null).keep(reply(4, 2, ShardStateProto.SHARD_STORED), payload);
    assertThat(kept).hasSize(2);
    assertThat(ByteBufUtil.getBytes(kept.get(0))).isEqualTo("abcd".getBytes());
    assertThat(ByteBufUtil.getBytes(kept.get(1))).isEqualTo(new byte[] {'E', 'F', 0, 0, 0, 0});
    kept.forEach(ByteBuf::release);
    assertThat(payload.refCnt()).as("released once every kept range is").isZero();
  }

  @Test
  void aCorruptRangeKeepsNothingSoTheReadIsDecodedInstead() throws Exception {
    ByteBuf payload = payload("abcdEFGHIJ");
    assertThat(twoRanges(null).keep(reply(4, 6, ShardStateProto.SHARD_CORRUPT), payload)).isNull();
    assertThat(payload.refCnt()).isZero();
    byte[] into = new byte[10];
    assertThat(
            twoRanges(into)
                .accept(reply(4, 6, ShardStateProto.SHARD_CORRUPT), payload("abcdEFGHIJ")))
        .containsExactly("second");
  }

  @Test
  void aReplyThatDisagreesWithTheRequestIsRefusedBeforeAByteIsUsed() {
    byte[] into = new byte[10];
    ByteBuf longer = payload("abcdEFGHIJK");
    assertThatThrownBy(
            () -> twoRanges(null).keep(reply(4, 7, ShardStateProto.SHARD_STORED), longer))
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("returns 7 bytes for a range of 6");
    assertThat(longer.refCnt()).isZero();
    assertThatThrownBy(
            () ->
                twoRanges(into).accept(reply(4, 6, ShardStateProto.SHARD_STORED), payload("abcd")))
        .hasMessageContaining("announces 10 bytes but sends 4");
    assertThatThrownBy(
            () -> twoRanges(null).keep(reply(-1, 6, ShardStateProto.SHARD_STORED), payload("abcd")))
        .hasMessageContaining("returns 4294967295 bytes");
    DataResponseProto oneAnswer =
        DataResponseProto.newBuilder()
            .setRead(
                ReadShardsResponseProto.newBuilder()
                    .addStates(ShardStateProto.SHARD_STORED)
                    .addStoredLengths(4))
            .build();
    assertThatThrownBy(() -> twoRanges(null).keep(oneAnswer, payload("abcd")))
        .hasMessageContaining("answers 1 of 2 ranges");
    assertThat(into).as("nothing copied from refused replies").containsOnly(0);
  }
}
