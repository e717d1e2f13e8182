package io.tessera.common.dataio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.Service;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One decoding of data server replies for the client and recovery, with what differs passed in. */
class DataServerReplyTest {
  private final List<String> events = new ArrayList<>();
  private final DataServerReply.Outcomes outcomes =
      new DataServerReply.Outcomes() {
        @Override
        public void answered(String server) {
          events.add("answered " + server);
        }

        @Override
        public RuntimeException failed(String server, StatusProto status, String message) {
          events.add("failed " + status + " " + message);
          return new IllegalStateException(message);
        }

        @Override
        public RuntimeException unreadable(String server, String message) {
          events.add("unreadable " + message);
          return new IllegalStateException(message);
        }

        @Override
        public RuntimeException unreachable(String server, String address, Throwable cause) {
          events.add("unreachable " + server);
          return new IllegalStateException(cause);
        }
      };

  private static Frame frame(byte[] header, ByteBuf payload) {
    return new Frame(1, Frame.RESPONSE, Service.DATA, header, payload);
  }

  @Test
  void anOkReplyKeepsItsPayloadForTheCaller() {
    ByteBuf payload = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
    DataServerReply r =
        DataServerReply.decode(
            "ds-1",
            frame(
                DataResponseProto.newBuilder().setStatus(StatusProto.OK).build().toByteArray(),
                payload),
            outcomes);
    assertThat(r.payload().readableBytes()).isEqualTo(3);
    assertThat(r.payload().refCnt()).isEqualTo(1);
    assertThat(events).containsExactly("answered ds-1");
    r.payload().release();
  }

  @Test
  void aRefusalReleasesThePayloadAndNamesTheServerAndItsReason() {
    ByteBuf payload = Unpooled.wrappedBuffer(new byte[] {1});
    byte[] busy =
        DataResponseProto.newBuilder()
            .setStatus(StatusProto.BUSY)
            .setMessage("held")
            .build()
            .toByteArray();
    assertThatThrownBy(() -> DataServerReply.decode("ds-2", frame(busy, payload), outcomes))
        .hasMessage("data server ds-2: held");
    assertThat(payload.refCnt()).isZero();
    assertThat(events).containsExactly("failed BUSY data server ds-2: held");
  }

  @Test
  void anUnreadableReplyIsReleasedAndReportedAsSuch() {
    ByteBuf payload = Unpooled.wrappedBuffer(new byte[] {1});
    assertThatThrownBy(
            () ->
                DataServerReply.decode(
                    "ds-3", frame(new byte[] {(byte) 0xff, 0x7f}, payload), outcomes))
        .hasMessage("unreadable reply from data server ds-3");
    assertThat(payload.refCnt()).isZero();
  }
}
