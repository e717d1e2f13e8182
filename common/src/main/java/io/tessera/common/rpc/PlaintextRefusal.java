package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First on a TLS port: a peer that speaks our frames in the clear (a client or server started with
 * tessera.security=off) gets an answer it can read, saying why it is refused, instead of a dropped
 * connection it would retry for seconds. Anything else that is not TLS is dropped. TLS passes on
 * untouched; this handler then leaves the pipeline.
 */
final class PlaintextRefusal extends ByteToMessageDecoder {
  private static final Logger LOG = LoggerFactory.getLogger(PlaintextRefusal.class);
  private static final RefusalLog REFUSALS = new RefusalLog(LOG);

  /** Enough of a frame to answer it: length, request id, kind, service. */
  private static final int FRAME_START = 4 + 8 + 1 + 1;

  private final String port;
  private final Map<Service, RpcService> services;

  PlaintextRefusal(String port, Map<Service, RpcService> services) {
    this.port = port;
    this.services = services;
  }

  /** A TLS record's header: enough to tell TLS from anything else. */
  private static final int RECORD_HEADER = 5;

  /** TLS record content types (change_cipher_spec .. heartbeat) open every TLS connection. */
  private static boolean isTlsContentType(byte first) {
    return first >= 20 && first <= 24;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < Integer.BYTES) {
      return;
    }
    if (isTlsContentType(in.getByte(in.readerIndex()))) {
      if (in.readableBytes() < RECORD_HEADER) {
        return;
      }
      if (SslHandler.isEncrypted(in, false)) {
        ctx.pipeline().remove(this); // the buffered bytes go on to the TLS handler
        return;
      }
    }
    int declared = in.getInt(in.readerIndex());
    if (in.readableBytes() < FRAME_START && declared >= Frame.FIXED_BYTES && declared <= 1 << 30) {
      return; // the start of a frame: wait for its request id to answer it
    }
    int start = in.readerIndex();
    boolean whole = in.readableBytes() >= FRAME_START;
    long requestId = whole ? in.getLong(start + 4) : 0;
    byte kind = whole ? in.getByte(start + 12) : -1;
    Service service = whole ? Service.fromCode(in.getByte(start + 13)) : null;
    in.skipBytes(in.readableBytes());
    REFUSALS.refused(
        RefusalLog.host(ctx.channel().remoteAddress()),
        "{}: refused a connection from {}: it does not speak TLS (a process with"
            + " tessera.security=off?)",
        port,
        ctx.channel().remoteAddress());
    RpcService answering = service == null ? null : services.get(service);
    if (kind != Frame.REQUEST || answering == null) {
      ctx.close();
      return;
    }
    RpcReply reply =
        answering.errorReply(
            new TesseraException(
                StatusProto.PERMISSION_DENIED,
                port
                    + " accepts only TLS connections with a certificate of its cluster: this process"
                    + " runs with tessera.security=off, or without credentials"));
    ByteBuf bytes =
        Frame.encode(
            ctx.alloc(), Frame.response(requestId, service, reply.header(), reply.payload()));
    ctx.writeAndFlush(bytes).addListener(ChannelFutureListener.CLOSE);
  }
}
