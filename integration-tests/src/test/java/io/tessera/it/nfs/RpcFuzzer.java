package io.tessera.it.nfs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Feeds mutated RPC records to a server for a bounded time: flipped bytes, cut records, extreme
 * lengths and counts, unknown procedures and programs, fragment headers that lie. Counts the
 * accept_stat of every reply it reads back.
 */
final class RpcFuzzer {
  private static final int[] EXTREMES = {0, 1, -1, 0x7fffffff, 0x80000000, 0xffff, 64, 65, 4096};
  private final InetSocketAddress server;
  private final List<byte[]> seeds;
  private final Random random;
  final Map<Integer, AtomicLong> acceptStats = new ConcurrentHashMap<>();
  final AtomicLong sent = new AtomicLong();
  final AtomicLong connections = new AtomicLong();

  RpcFuzzer(InetSocketAddress server, List<byte[]> seeds, long seed) {
    this.server = server;
    this.seeds = seeds;
    this.random = new Random(seed);
  }

  /** Sends mutated records until {@code millis} have passed. */
  void run(long millis) throws InterruptedException {
    long end = System.currentTimeMillis() + millis;
    while (System.currentTimeMillis() < end) {
      try (Socket s = new Socket()) {
        s.connect(server, 2000);
        s.setSoTimeout(2000);
        connections.incrementAndGet();
        Thread reader = new Thread(() -> readReplies(s), "fuzz-replies");
        reader.setDaemon(true);
        reader.start();
        OutputStream out = s.getOutputStream();
        for (int i = 0; i < 200 && System.currentTimeMillis() < end; i++) {
          out.write(mutated());
          sent.incrementAndGet();
        }
        out.flush();
        reader.join(500);
      } catch (IOException closedByServer) {
        // a record the server could not frame closes the connection: open another
      }
    }
  }

  private void readReplies(Socket s) {
    try {
      InputStream in = s.getInputStream();
      byte[] header = new byte[4];
      while (in.readNBytes(header, 0, 4) == 4) {
        int len = ByteBuffer.wrap(header).getInt() & 0x7fffffff;
        byte[] reply = in.readNBytes(len);
        if (reply.length >= 24 && ByteBuffer.wrap(reply, 8, 4).getInt() == 0) {
          int stat = ByteBuffer.wrap(reply, 20, 4).getInt();
          acceptStats.computeIfAbsent(stat, k -> new AtomicLong()).incrementAndGet();
        }
      }
    } catch (IOException done) {
      // the connection ended
    }
  }

  private byte[] mutated() {
    byte[] r = seeds.get(random.nextInt(seeds.size())).clone();
    switch (random.nextInt(6)) {
      case 0 -> { // flip bytes
        for (int i = 0; i < 1 + random.nextInt(4); i++) {
          r[random.nextInt(r.length)] ^= (byte) (1 + random.nextInt(255));
        }
      }
      case 1 -> { // an extreme value in place of a word (a length, a count, a procedure)
        int at = (random.nextInt(r.length / 4)) * 4;
        ByteBuffer.wrap(r).putInt(at, EXTREMES[random.nextInt(EXTREMES.length)]);
      }
      case 2 -> r = java.util.Arrays.copyOf(r, random.nextInt(r.length)); // cut short
      case 3 -> { // another procedure or program
        ByteBuffer.wrap(r).putInt(random.nextBoolean() ? 20 : 12, random.nextInt(40) - 5);
      }
      case 4 -> { // trailing junk
        r = java.util.Arrays.copyOf(r, r.length + random.nextInt(64));
      }
      default -> {} // as it was
    }
    if (random.nextInt(50) == 0) {
      // a fragment header claiming more than will ever come, or more than any record may be
      ByteBuffer b = ByteBuffer.allocate(4 + r.length);
      b.putInt(0x80000000 | (r.length + 1 + random.nextInt(1 << 30)));
      b.put(r);
      return b.array();
    }
    return RpcRecords.framed(r);
  }
}
