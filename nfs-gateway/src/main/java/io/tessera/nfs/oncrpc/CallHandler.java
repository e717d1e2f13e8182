package io.tessera.nfs.oncrpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads call headers off each record, runs the program's procedure on a worker and writes the reply
 * as one record. Errors in a call are answered (GARBAGE_ARGS, PROC_UNAVAIL, ...) and the connection
 * serves on; only a record that cannot be framed closes it.
 */
final class CallHandler extends SimpleChannelInboundHandler<ByteBuf> {
  private static final Logger LOG = LoggerFactory.getLogger(CallHandler.class);
  private static final QuietLog CLOSED = new QuietLog(LOG, 10_000);
  private static final int CALL = 0;
  private static final int REPLY = 1;
  private static final int RPC_VERSION = 2;
  private static final int MAX_AUTH_BODY = 400;
  private static final int AUTH_NONE = 0;

  /** reply_stat, reject_stat and auth_stat values. */
  private static final int MSG_ACCEPTED = 0;

  private static final int MSG_DENIED = 1;
  private static final int RPC_MISMATCH = 0;
  private static final int AUTH_ERROR = 1;
  private static final int AUTH_BADCRED = 1;
  private static final int AUTH_TOOWEAK = 5;
  private static final int SUCCESS = 0;

  private final Map<Integer, RpcProgram> programs;
  private final Executor workers;
  private final int maxInFlight;
  private final CallBudget budget;
  private ChannelHandlerContext ctx;
  private int inFlight;

  CallHandler(
      Map<Integer, RpcProgram> programs, Executor workers, int maxInFlight, CallBudget budget) {
    this.programs = programs;
    this.workers = workers;
    this.maxInFlight = maxInFlight;
    this.budget = budget;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, ByteBuf record) {
    XdrReader in = new XdrReader(record);
    int xid;
    try {
      xid = in.readInt();
      if (in.readInt() != CALL) {
        return; // a stray reply: nothing to answer
      }
    } catch (XdrException e) {
      return; // shorter than a call header: no xid to answer to
    }
    ByteBuf reply = ctx.alloc().buffer(256);
    XdrWriter out = new XdrWriter(reply);
    Header h;
    try {
      h = header(in);
    } catch (XdrException e) {
      accepted(out, xid, RpcRefusal.GARBAGE_ARGS);
      send(ctx, reply);
      return;
    }
    if (h.denial != null) {
      h.denial.write(out, xid);
      send(ctx, reply);
      return;
    }
    RpcProgram program = programs.get(h.program);
    if (program == null) {
      accepted(out, xid, RpcRefusal.PROG_UNAVAIL);
      send(ctx, reply);
      return;
    }
    if (h.version < program.lowVersion() || h.version > program.highVersion()) {
      accepted(out, xid, RpcRefusal.PROG_MISMATCH);
      out.writeInt(program.lowVersion()).writeInt(program.highVersion());
      send(ctx, reply);
      return;
    }
    // its own copy: a slice would keep the whole receive buffer it came in alive while queued
    ByteBuf args = ctx.alloc().heapBuffer(record.readableBytes()).writeBytes(record);
    int bytes = args.capacity();
    InetSocketAddress from = (InetSocketAddress) ctx.channel().remoteAddress();
    RpcCall call =
        new RpcCall(
            xid,
            h.version,
            h.procedure,
            h.credential,
            from.getAddress(),
            from.getPort(),
            new XdrReader(args));
    budget.take(bytes);
    inFlight++;
    pauseIfNeeded();
    try {
      workers.execute(() -> run(ctx, program, call, args, reply));
    } catch (RejectedExecutionException e) {
      args.release();
      reply.release();
      inFlight--;
      budget.give(bytes);
      ctx.close();
    }
  }

  /** Stops reading while this connection has its share of calls or the gateway holds its all. */
  private void pauseIfNeeded() {
    if (inFlight >= maxInFlight || budget.exhausted()) {
      ctx.channel().config().setAutoRead(false);
      if (budget.exhausted()) {
        budget.waitFor(this);
      }
    }
  }

  /** Reads again unless this connection still has its share of calls in progress. */
  void resumeIfAllowed() {
    if (inFlight < maxInFlight && !budget.exhausted() && ctx.channel().isActive()) {
      ctx.channel().config().setAutoRead(true);
    }
  }

  private void run(
      ChannelHandlerContext ctx, RpcProgram program, RpcCall call, ByteBuf record, ByteBuf reply) {
    int bytes = record.capacity();
    if (!ctx.channel().isActive()) {
      // its client is gone: nobody would read the answer
      record.release();
      reply.release();
      ctx.executor().execute(() -> finished(bytes));
      return;
    }
    XdrWriter out = new XdrWriter(reply);
    try {
      accepted(out, call.xid(), SUCCESS);
      program.call(call, out);
    } catch (RpcRefusal r) {
      reply.clear();
      accepted(out, call.xid(), r.acceptStat());
      LOG.debug("call {} of program {}: {}", call.procedure(), program.number(), r.getMessage());
    } catch (RuntimeException e) {
      reply.clear();
      accepted(out, call.xid(), RpcRefusal.SYSTEM_ERR);
      LOG.warn("procedure {} of program {} failed", call.procedure(), program.number(), e);
    } finally {
      record.release();
    }
    ctx.executor()
        .execute(
            () -> {
              send(ctx, reply);
              finished(bytes);
            });
  }

  private void finished(int bytes) {
    inFlight--;
    budget.give(bytes);
    resumeIfAllowed();
  }

  private record Header(
      int program, int version, int procedure, UnixCredential credential, Denial denial) {}

  /** An MSG_DENIED reply: the RPC version or the credential was refused. */
  private record Denial(int rejectStat, int detail) {
    void write(XdrWriter out, int xid) {
      out.writeInt(xid).writeInt(REPLY).writeInt(MSG_DENIED).writeInt(rejectStat);
      if (rejectStat == RPC_MISMATCH) {
        out.writeInt(RPC_VERSION).writeInt(RPC_VERSION);
      } else {
        out.writeInt(detail);
      }
    }
  }

  private static Header header(XdrReader in) throws XdrException {
    int rpcVersion = in.readInt();
    int program = in.readInt();
    int version = in.readInt();
    int procedure = in.readInt();
    int flavor = in.readInt();
    byte[] body = in.readOpaque(MAX_AUTH_BODY, "credential");
    in.readInt(); // verifier flavor: AUTH_NONE or AUTH_UNIX carry none we check
    in.readOpaque(MAX_AUTH_BODY, "verifier");
    if (rpcVersion != RPC_VERSION) {
      return new Header(program, version, procedure, null, new Denial(RPC_MISMATCH, 0));
    }
    UnixCredential cred;
    if (flavor == UnixCredential.FLAVOR) {
      try {
        cred = UnixCredential.decode(new XdrReader(Unpooled.wrappedBuffer(body)));
      } catch (XdrException e) {
        return new Header(program, version, procedure, null, new Denial(AUTH_ERROR, AUTH_BADCRED));
      }
    } else if (flavor == AUTH_NONE) {
      cred = UnixCredential.NOBODY;
    } else {
      return new Header(program, version, procedure, null, new Denial(AUTH_ERROR, AUTH_TOOWEAK));
    }
    return new Header(program, version, procedure, cred, null);
  }

  /** The accepted-reply header: xid, REPLY, MSG_ACCEPTED, AUTH_NONE verifier, accept_stat. */
  private static void accepted(XdrWriter out, int xid, int acceptStat) {
    out.writeInt(xid)
        .writeInt(REPLY)
        .writeInt(MSG_ACCEPTED)
        .writeInt(AUTH_NONE)
        .writeInt(0)
        .writeInt(acceptStat);
  }

  /** One record: a last-fragment header, then the reply. */
  private static void send(ChannelHandlerContext ctx, ByteBuf reply) {
    ByteBuf marker = ctx.alloc().buffer(4).writeInt(0x80000000 | reply.readableBytes());
    ctx.write(marker);
    ctx.writeAndFlush(reply);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof IdleStateEvent) {
      ctx.close(); // an idle client reconnects when it needs to; a stalled record frees its bytes
    } else {
      ctx.fireUserEventTriggered(evt);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof DecoderException) {
      CLOSED.warn(
          "closing NFS connection from {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
    } else if (!(cause instanceof IOException)) {
      LOG.warn("NFS connection from {} failed", ctx.channel().remoteAddress(), cause);
    }
    ctx.close();
  }
}
