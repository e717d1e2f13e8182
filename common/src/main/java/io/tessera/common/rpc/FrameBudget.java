package io.tessera.common.rpc;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The bytes a server may hold for frames it has started but not finished receiving, across all its
 * connections. A connection reserves a frame's declared length when its header arrives and gives it
 * back when the frame is complete or the connection closes. When a frame does not fit, its
 * connection stops reading (TCP pushes back on the sender) until others give bytes back: a few
 * peers sending huge frames slowly cannot take a server's memory, and nobody is refused.
 */
public final class FrameBudget {
  /**
   * A connection as the budget sees it: its reads can be turned off and on. Kept apart from any
   * Netty type, so the Raft port's connections (Ratis's own shaded Netty) share the same rules.
   */
  public interface Reads {
    void pause();

    /** Turns reads back on, when the connection is still open. */
    void resume();
  }

  private final long limit;
  private long reserved;

  /** Connections waiting for room, oldest first. */
  private final Deque<Reads> waiting = new ArrayDeque<>();

  public FrameBudget(long limitBytes) {
    if (limitBytes < 1) {
      throw new IllegalArgumentException("a frame budget must be positive; got " + limitBytes);
    }
    this.limit = limitBytes;
  }

  /**
   * Reserves {@code bytes} for a frame of {@code connection}; a frame larger than the whole budget
   * is given it alone (nothing else in flight). Returns false, and pauses the connection's reads
   * until there is room, when it does not fit now.
   */
  public synchronized boolean reserve(Reads connection, long bytes) {
    if (reserved == 0 || reserved + bytes <= limit) {
      reserved += bytes;
      return true;
    }
    connection.pause();
    if (!waiting.contains(connection)) {
      waiting.addLast(connection);
    }
    return false;
  }

  /** Gives back what a frame reserved; connections that waited read again. */
  public void release(long bytes) {
    Deque<Reads> resume;
    synchronized (this) {
      reserved = Math.max(0, reserved - bytes);
      resume = new ArrayDeque<>(waiting);
      waiting.clear();
    }
    for (Reads c : resume) {
      c.resume(); // reads again; a frame that still does not fit pauses it again
    }
  }

  /** A closed connection no longer waits. */
  public synchronized void forget(Reads connection) {
    waiting.remove(connection);
  }

  /** Bytes reserved now (for tests and status). */
  public synchronized long reserved() {
    return reserved;
  }

  public long limit() {
    return limit;
  }
}
