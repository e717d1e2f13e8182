package io.tessera.common.rpc;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.EnumSet;
import java.util.Set;

/**
 * Whether a server reads a connection, for every reason it may stop at once: a connection reads
 * again only when no reason holds any more, so one reason ending cannot resume reads another still
 * needs paused.
 */
final class ReadGate {
  /** Why a server stopped reading a connection. */
  enum Reason {
    /** The frame arriving waits for room in the server's budget of half-received frames. */
    ROOM,
    /** The connection has as many requests in progress as it may, or its replies are not taken. */
    REPLIES
  }

  private static final AttributeKey<ReadGate> KEY = AttributeKey.valueOf("tessera.read-gate");

  private final Channel channel;
  private final Set<Reason> closed = EnumSet.noneOf(Reason.class);

  private ReadGate(Channel channel) {
    this.channel = channel;
  }

  static ReadGate of(Channel channel) {
    ReadGate gate = channel.attr(KEY).get();
    if (gate == null) {
      ReadGate fresh = new ReadGate(channel);
      gate = channel.attr(KEY).setIfAbsent(fresh);
      if (gate == null) {
        gate = fresh;
      }
    }
    return gate;
  }

  /** Stops reading for {@code reason} (the sender is slowed by TCP). */
  synchronized void close(Reason reason) {
    closed.add(reason);
    channel.config().setAutoRead(false);
  }

  /** {@code reason} no longer holds; reads resume if no other reason does. */
  synchronized void open(Reason reason) {
    if (closed.remove(reason) && closed.isEmpty() && channel.isActive()) {
      channel.config().setAutoRead(true);
      channel.read();
    }
  }

  synchronized boolean closedFor(Reason reason) {
    return closed.contains(reason);
  }
}
