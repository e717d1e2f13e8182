package io.tessera.meta.ratis;

import io.tessera.common.rpc.FrameBudget;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.ratis.thirdparty.io.netty.channel.Channel;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelFuture;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandler;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandlerContext;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelInboundHandlerAdapter;
import org.apache.ratis.thirdparty.io.netty.handler.codec.CorruptedFrameException;
import org.apache.ratis.thirdparty.io.netty.handler.codec.DecoderException;
import org.apache.ratis.thirdparty.io.netty.handler.codec.TooLongFrameException;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufVarint32FrameDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.timeout.IdleStateEvent;
import org.apache.ratis.thirdparty.io.netty.handler.timeout.IdleStateHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a meta replica's Raft port to the rules of the servers' own ports. As Ratis builds it, the
 * port buffers any declared message length, leaves an undecodable message's exception to the end of
 * its pipeline (Netty's WARN with a stack trace, every time) and keeps the connection open: twenty
 * 26-byte garbage messages wrote thousands of log lines. Here every connection gets a bounded frame
 * decoder in place of Ratis's ({@link RaftFrameDecoder}, sharing a {@link FrameBudget}), is closed
 * if it stalls mid-frame, and on an error logs one line and closes.
 *
 * <p>Installed through the Raft server's Netty channel, a private field of Ratis 3.3's
 * NettyRpcService: with another Ratis version it says so once and leaves the port as Ratis built
 * it. Idle connections stay open: peers keep theirs for the next election.
 */
public final class RaftPortGuard {
  private static final Logger LOG = LoggerFactory.getLogger(RaftPortGuard.class);

  /**
   * The largest Raft message accepted. Ratis's own messages stay far below (log appends are batched
   * up to 4 MiB and snapshot chunks to 16 MiB by default).
   */
  public static final int MAX_MESSAGE_BYTES = 64 << 20;

  private RaftPortGuard() {}

  /** Guards the Raft port of a started server; returns whether it could. */
  public static boolean install(RaftServer server, FrameBudget budget, Duration stalledFrame) {
    Channel port;
    try {
      Object rpc = server.getServerRpc();
      Field f = rpc.getClass().getDeclaredField("channel");
      f.setAccessible(true);
      port = ((ChannelFuture) ((Supplier<?>) f.get(rpc)).get()).channel();
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.info("The Raft port keeps Ratis's own handling of malformed messages ({})", e.toString());
      return false;
    }
    port.pipeline().addFirst("tessera-guard-installer", new Installer(budget, stalledFrame));
    return true;
  }

  /** On the listening channel: gives every accepted connection the guard. */
  @ChannelHandler.Sharable
  private static final class Installer extends ChannelInboundHandlerAdapter {
    private final FrameBudget budget;
    private final Duration stalledFrame;

    Installer(FrameBudget budget, Duration stalledFrame) {
      this.budget = budget;
      this.stalledFrame = stalledFrame;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof Channel child) {
        child.pipeline().addLast("tessera-guard-setup", new Setup(budget, stalledFrame));
      }
      ctx.fireChannelRead(msg);
    }
  }

  /**
   * Added before Ratis's handlers exist; once the connection is active (they are in place), swaps
   * in the bounded decoder, watches for stalls, and puts the {@link Guard} at the pipeline's end.
   */
  private static final class Setup extends ChannelInboundHandlerAdapter {
    private final FrameBudget budget;
    private final Duration stalledFrame;

    Setup(FrameBudget budget, Duration stalledFrame) {
      this.budget = budget;
      this.stalledFrame = stalledFrame;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      var pipeline = ctx.pipeline();
      pipeline.remove(this);
      if (pipeline.get(ProtobufVarint32FrameDecoder.class) != null) {
        pipeline.replace(
            ProtobufVarint32FrameDecoder.class,
            "tessera-frames",
            new RaftFrameDecoder(MAX_MESSAGE_BYTES, budget));
        pipeline.addFirst(
            "tessera-stall",
            new IdleStateHandler(stalledFrame.toMillis(), 0, 0, TimeUnit.MILLISECONDS));
      }
      pipeline.addLast("tessera-guard", new Guard());
      ctx.fireChannelActive();
    }
  }

  /**
   * Closes a connection stuck mid-message, or one that sent what Ratis cannot read: one line each.
   */
  private static final class Guard extends ChannelInboundHandlerAdapter {
    private boolean said;

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      RaftFrameDecoder decoder = ctx.pipeline().get(RaftFrameDecoder.class);
      if (evt instanceof IdleStateEvent
          && decoder != null
          && decoder.midFrame()
          && ctx.channel().config().isAutoRead()) {
        LOG.warn(
            "Closing Raft connection from {}: it stopped sending half-way through a message",
            ctx.channel().remoteAddress());
        ctx.close();
        return;
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (!said) {
        said = true;
        LOG.warn(
            "Closing Raft connection from {}: {}", ctx.channel().remoteAddress(), describe(cause));
      }
      ctx.close();
    }

    /** What went wrong, in words: the innermost cause's message without exception class names. */
    private static String describe(Throwable cause) {
      Throwable root = cause;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String what = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
      if (root instanceof TooLongFrameException || root instanceof CorruptedFrameException) {
        return what; // RaftFrameDecoder's own words
      }
      if (root instanceof DecoderException || root instanceof InvalidProtocolBufferException) {
        return "it sent what is no Raft message (" + what + ")";
      }
      return what;
    }
  }
}
