package io.tessera.common.rpc;

/** A frame that would exceed the connection's maximum size was not sent. */
public final class FrameTooLargeException extends RuntimeException {
  public FrameTooLargeException(long bytes, int max) {
    super(
        "a frame of "
            + bytes
            + " bytes exceeds the limit of "
            + max
            + " bytes; send less per request or raise tessera.rpc.max-frame-size on both sides");
  }
}
