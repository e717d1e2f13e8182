package io.tessera.common.dataio;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Frame;

/**
 * A data server's OK reply, as every caller of data.proto sees it (the client's striping core and
 * recovery alike): the header and the raw payload, which the caller releases.
 */
public record DataServerReply(DataResponseProto header, ByteBuf payload) {
  /** What differs between callers: who counts a server down, and what a failed reply becomes. */
  public interface Outcomes {
    /** The server answered OK. */
    void answered(String server);

    /** The exception a caller sees for a reply other than OK; it may also count the server down. */
    RuntimeException failed(String server, StatusProto status, String message);

    /** The exception a caller sees for a reply that could not be read. */
    RuntimeException unreadable(String server, String message);

    /**
     * The exception a caller sees for a call that got no reply from {@code address}: {@code cause}
     * is a transport failure ({@link DataServerCaller#transport}) or the call could not be sent.
     */
    RuntimeException unreachable(String server, String address, Throwable cause);
  }

  /**
   * Decodes a reply frame; a failed reply's frame is released and {@code outcomes} names the
   * exception.
   */
  public static DataServerReply decode(String server, Frame frame, Outcomes outcomes) {
    DataResponseProto h;
    try {
      h = DataResponseProto.parseFrom(frame.header());
    } catch (InvalidProtocolBufferException e) {
      frame.release();
      throw outcomes.unreadable(server, "unreadable reply from data server " + server);
    }
    if (h.getStatus() != StatusProto.OK) {
      frame.release();
      throw outcomes.failed(server, h.getStatus(), "data server " + server + ": " + h.getMessage());
    }
    outcomes.answered(server);
    return new DataServerReply(h, frame.payload());
  }
}
