package io.tessera.common.rpc;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/** A peer that starts a META request frame and stops sending half-way. */
final class HalfSentFrame {
  private HalfSentFrame() {}

  /**
   * Writes a frame header declaring {@code length} bytes, then {@code sent} of them, and keeps the
   * socket.
   */
  static Socket send(int port, int length, int sent) throws Exception {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(30_000);
    CompletableFuture.runAsync(
        () -> {
          try {
            OutputStream out = s.getOutputStream();
            ByteBuffer head =
                ByteBuffer.allocate(4 + Frame.FIXED_BYTES)
                    .putInt(length)
                    .putLong(1)
                    .put(Frame.REQUEST)
                    .put(Service.META.code())
                    .putInt(0);
            out.write(head.array());
            byte[] chunk = new byte[64 << 10];
            for (int done = Frame.FIXED_BYTES; done + chunk.length <= sent; done += chunk.length) {
              out.write(chunk); // blocks once the server stops reading this connection
            }
            out.flush();
          } catch (Exception closed) {
            // the server closed it
          }
        });
    return s;
  }
}
