package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.Service;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure against a real data server process: a client that sends reads of 1 MiB and never
 * takes the replies. The server stops reading that connection once its replies pile up, so its
 * memory stays bounded, and another client's reads keep their speed. Before, the server read every
 * request and queued every reply: 1,500 of them are 1.5 GiB, past the server's direct memory.
 */
class GreedyReaderProcessTest {
  private static final int MB = 1 << 20;
  private static final int FILE_MB = 48;
  private static final int GREEDY_READS = 1500;

  @Test
  void aReaderThatNeverTakesItsRepliesCostsTheServerBoundedMemoryAndOthersKeepTheirSpeed()
      throws Exception {
    ClusterPlan plan =
        new ClusterPlan(TestDirs.fresh("greedy-reader"), 1, 3, TestPorts.freeBase(20));
    try (ProcessCluster cluster =
            ProcessCluster.start(
                plan, heapResidentFromTheStart(), List.of("-Dtessera.security=off"));
        TesseraFileSystem fs = TesseraFileSystem.connect(cluster.clientConfig())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      byte[] data = new byte[FILE_MB * MB];
      new Random(11).nextBytes(data);
      long fileId;
      StripeLayout layout;
      try (TesseraFile f = fs.createFile("/big", CreateOptions.erasure(2, 1).stripeUnit(MB))) {
        f.write(0, data, 0, data.length);
        fileId = f.fileId();
        layout = f.layout();
      }
      String target = layout.serverOf(0, 0);
      double alone = bestReadRate(fs, data);
      long rssBefore = residentBytes(cluster.process(target).pid());

      AtomicInteger sent = new AtomicInteger();
      String[] hostPort = plan.dataAddress(target).split(":");
      try (Socket greedy = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
        greedy.setReceiveBufferSize(64 << 10); // the kernel holds little of what is never read
        sendReadsAndNeverTakeTheReplies(greedy, unitsOn(target, layout, fileId), sent);
        // the requests are small: all of them fit in the sockets' buffers at once
        await().atMost(Duration.ofSeconds(30)).until(() -> sent.get() == GREEDY_READS);
        // measured before another client reads beside it: those reads' buffers are not its cost
        long grown = mostResidentBytes(cluster.process(target).pid(), 12) - rssBefore;
        double beside = bestReadRate(fs, data);

        System.out.printf(
            "greedy reader: %s grew by %d MiB; another client read %.1f MB/s alone, %.1f beside it%n",
            target, grown / MB, alone, beside);
        assertThat(grown)
            .as("memory the data server took for the replies nobody takes")
            .isLessThan(256L * MB);
        assertThat(beside)
            .as("another client's reads (MB/s) beside the greedy one, against %.1f alone", alone)
            .isGreaterThan(alone / 2);
      }
      cluster.checkAlive();
    }
  }

  /**
   * Servers whose whole heap is resident from the start, so that what their resident memory gains
   * is what they hold off the heap (replies); a heap growing into its maximum as the reads run made
   * the figure vary from 83 to 323 MiB between runs.
   */
  private static List<String> heapResidentFromTheStart() {
    List<String> options = new ArrayList<>(ProcessCluster.defaultJvmOptions());
    options.add("-Xms512m");
    options.add("-XX:+AlwaysPreTouch");
    return ProcessCluster.javaLauncher(ServerLaunchers.serverClassPath(), options);
  }

  /** The 1 MiB units of the file that {@code server} holds. */
  private static List<ShardRangeProto> unitsOn(String server, StripeLayout layout, long fileId) {
    List<ShardRangeProto> units = new ArrayList<>();
    for (long stripe = 0; stripe < FILE_MB / layout.dataUnits(); stripe++) {
      for (int u = 0; u < layout.width(); u++) {
        if (layout.serverOf(stripe, u).equals(server)) {
          units.add(
              ShardRangeProto.newBuilder()
                  .setFileId(fileId)
                  .setStripe(stripe)
                  .setUnit(u)
                  .setLength(MB)
                  .build());
        }
      }
    }
    return units;
  }

  /** Writes the reads one frame at a time in the background; the writes block once not read. */
  private static void sendReadsAndNeverTakeTheReplies(
      Socket s, List<ShardRangeProto> units, AtomicInteger sent) {
    CompletableFuture.runAsync(
        () -> {
          try {
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < GREEDY_READS; i++) {
              byte[] header =
                  DataRequestProto.newBuilder()
                      .setRead(
                          ReadShardsRequestProto.newBuilder()
                              .addRanges(units.get(i % units.size())))
                      .build()
                      .toByteArray();
              ByteBuf frame =
                  Frame.encode(
                      UnpooledByteBufAllocator.DEFAULT,
                      Frame.request(i + 1, Service.DATA, header, null));
              byte[] bytes = new byte[frame.readableBytes()];
              frame.readBytes(bytes);
              frame.release();
              out.write(bytes);
              out.flush();
              sent.incrementAndGet();
            }
          } catch (IOException closed) {
            // the test closed it
          }
        });
  }

  /** The best of three whole-file reads, in MB/s; each must return the file's bytes. */
  private static double bestReadRate(TesseraFileSystem fs, byte[] expected) throws IOException {
    double best = 0;
    byte[] got = new byte[expected.length];
    for (int i = 0; i < 3; i++) {
      long start = System.nanoTime();
      try (TesseraFile f = fs.openFile("/big")) {
        f.readFully(0, got, 0, got.length);
      }
      best = Math.max(best, expected.length / 1e6 / ((System.nanoTime() - start) / 1e9));
      assertThat(got).isEqualTo(expected);
    }
    return best;
  }

  /** The most resident memory the process shows in {@code samples} looks 250 ms apart. */
  private static long mostResidentBytes(long pid, int samples) throws Exception {
    long most = 0;
    for (int i = 0; i < samples; i++) {
      most = Math.max(most, residentBytes(pid));
      Thread.sleep(250);
    }
    return most;
  }

  /** The process's resident memory, from /proc. */
  private static long residentBytes(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    throw new IOException("no VmRSS in /proc/" + pid + "/status");
  }
}
