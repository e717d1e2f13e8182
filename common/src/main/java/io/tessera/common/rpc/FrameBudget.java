package io.tessera.common.rpc;

import io.netty.channel.Channel;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The bytes a server may hold for frames it has started but not finished receiving, across all
 * its connections. A connection reserves a frame's declared length when its header arrives and
 * gives it back when the frame is complete or the connection closes. When a frame does not fit,
 * its connection stops reading (TCP pushes back on the sender) until others give bytes back: a
 * few peers sending huge frames slowly cannot take a server's memory, and nobody is refused.
 */
public final class FrameBudget {
  private final long limit;
  private long reserved;
  /** Connections waiting for room, oldest first. */
  private final Deque<Channel> waiting = new ArrayDeque<>();

  public FrameBudget(long limitBytes) {
    if (limitBytes < 1) {
      throw new IllegalArgumentException("a frame budget must be positive; got " + limitBytes);
    }
    this.limit = limitBytes;
  }

  /**
   * Reserves {@code bytes} for a frame of {@code channel}; a frame larger than the whole budget is
   * given it alone (nothing else in flight). Returns false, and pauses the channel's reads until
   * there is room, when it does not fit now.
   */
  synchronized boolean reserve(Channel channel, long bytes) {
    if (reserved == 0 || reserved + bytes <= limit) {
      reserved += bytes;
      return true;
    }
    channel.config().setAutoRead(false);
    if (!waiting.contains(channel)) {
      waiting.addLast(channel);
    }
    return false;
  }

  /** Gives back what a frame reserved; connections that waited read again. */
  void release(long bytes) {
    Deque<Channel> resume;
    synchronized (this) {
      reserved = Math.max(0, reserved - bytes);
      resume = new ArrayDeque<>(waiting);
      waiting.clear();
    }
    for (Channel c : resume) {
      if (c.isActive()) {
        c.config().setAutoRead(true);   // reads again; a frame that still does not fit pauses it again
        c.read();
      }
    }
  }

  /** A closed connection no longer waits. */
  synchronized void forget(Channel channel) {
    waiting.remove(channel);
  }

  /** Bytes reserved now (for tests and status). */
  public synchronized long reserved() {
    return reserved;
  }

  public long limit() {
    return limit;
  }
}
