package io.tessera.cli.bench;

import io.tessera.cli.ClusterOptions;
import io.tessera.cli.fs.LayoutOptions;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.DataSize;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench ior}: IOR-like. N clients each write a block of B bytes in transfers
 * of T bytes (one shared file, client i at offset i*B, or a file per client), then read it
 * back and verify every byte. MB = 10^6 bytes, as IOR and the HDFS peer benchmark report.
 */
@Command(name = "ior", mixinStandardHelpOptions = true,
    description = {"IOR-like throughput: N clients write then read (and verify) their blocks.",
        "Each client has its own connection, as separate processes would. Reports MB/s (10^6 B/s) per phase."})
public final class IorCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  ClusterOptions cluster;

  @Mixin
  LayoutOptions layout;

  @Option(names = "--clients", defaultValue = "1", description = "concurrent clients (default ${DEFAULT-VALUE})")
  int clients;

  @Option(names = "--block", defaultValue = "256M", description = "bytes per client (default ${DEFAULT-VALUE})")
  String block;

  @Option(names = "--transfer", defaultValue = "4M", description = "bytes per write/read call (default ${DEFAULT-VALUE})")
  String transfer;

  @Option(names = "--file-per-client", description = "each client its own file (default: one shared file)")
  boolean filePerClient;

  @Option(names = "--dir", defaultValue = "/bench/ior", description = "cluster directory for the test files")
  String dir;

  @Option(names = "--phases", defaultValue = "write,read", split = ",", description = "write, read, or both")
  List<String> phases;

  @Option(names = "--keep", description = "keep the files afterwards")
  boolean keep;

  @Option(names = "--drop-caches", defaultValue = "true", negatable = true, fallbackValue = "true",
      description = "drop the OS page cache before reading, where allowed (default ${DEFAULT-VALUE})")
  boolean dropCaches;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    long blockBytes = DataSize.parse(block);
    int transferBytes = (int) DataSize.parse(transfer);
    if (clients < 1 || transferBytes < 1 || blockBytes % transferBytes != 0) {
      throw new IllegalArgumentException("--clients must be >= 1 and --block a multiple of --transfer");
    }
    List<TesseraFileSystem> fss = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      for (int i = 0; i < clients; i++) {
        fss.add(cluster.connect());
      }
      TesseraFileSystem fs = fss.get(0);
      fs.mkdirs(dir);
      CreateOptions o = layout.toOptions();
      CreateOptions opts = (o == null ? CreateOptions.defaults() : o).overwrite(true);
      List<String> files = new ArrayList<>();
      for (int i = 0; i < (filePerClient ? clients : 1); i++) {
        String f = dir + "/ior-" + ProcessHandle.current().pid() + "-" + i;
        fs.createFile(f, opts).close();
        files.add(f);
      }
      out.printf(Locale.ROOT, "ior: %d client(s), block %s, transfer %s, %s, layout %s%n", clients,
          DataSize.format(blockBytes), DataSize.format(transferBytes), filePerClient ? "file per client" : "shared file",
          fs.stat(files.get(0)).layout());
      long total = blockBytes * clients;
      if (phases.contains("write")) {
        double s = phase(pool, i -> write(fss.get(i), file(files, i), offset(i, blockBytes), blockBytes, transferBytes, i));
        out.printf(Locale.ROOT, "write: %.1f MB/s (%s in %.2f s)%n", total / 1e6 / s, DataSize.format(total), s);
        out.flush();
      }
      if (phases.contains("read")) {
        boolean dropped = dropCaches && dropPageCache();
        double s = phase(pool, i -> read(fss.get(i), file(files, i), offset(i, blockBytes), blockBytes, transferBytes, i));
        out.printf(Locale.ROOT, "read:  %.1f MB/s (%s in %.2f s, verified%s)%n", total / 1e6 / s,
            DataSize.format(total), s, dropped ? ", page cache dropped" : "");
      }
      if (!keep) {
        for (String f : files) {
          fs.delete(f, false);
        }
      }
      return 0;
    } finally {
      pool.shutdownNow();
      fss.forEach(TesseraFileSystem::close);
    }
  }

  private String file(List<String> files, int client) {
    return filePerClient ? files.get(client) : files.get(0);
  }

  private long offset(int client, long blockBytes) {
    return filePerClient ? 0 : client * blockBytes;
  }

  private interface ClientTask {
    void run(int client) throws Exception;
  }

  private double phase(ExecutorService pool, ClientTask task) throws Exception {
    long start = System.nanoTime();
    List<Future<?>> fs = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      int c = i;
      fs.add(pool.submit(() -> {
        task.run(c);
        return null;
      }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static void write(TesseraFileSystem fs, String path, long offset, long block, int transfer, int client)
      throws IOException {
    Pattern p = new Pattern(client, transfer);
    byte[] buf = new byte[transfer];
    try (TesseraFile f = fs.openFile(path); OutputStream out = f.newOutputStream(offset)) {
      for (long done = 0; done < block; done += transfer) {
        p.fill(buf, transfer, offset + done);
        out.write(buf, 0, transfer);
      }
    }
  }

  private static void read(TesseraFileSystem fs, String path, long offset, long block, int transfer, int client)
      throws IOException {
    Pattern p = new Pattern(client, transfer);
    byte[] buf = new byte[transfer];
    byte[] expected = new byte[transfer];
    try (TesseraFile f = fs.openFile(path); InputStream in = f.newInputStream(offset)) {
      for (long done = 0; done < block; done += transfer) {
        if (in.readNBytes(buf, 0, transfer) != transfer) {
          throw new IOException(path + " ended early at " + (offset + done));
        }
        long bad = p.firstMismatch(buf, transfer, offset + done, expected);
        if (bad >= 0) {
          throw new IOException("verification failed: " + path + " differs at byte " + bad);
        }
      }
    }
  }

  private static boolean dropPageCache() {
    Path knob = Path.of("/proc/sys/vm/drop_caches");
    if (!Files.isWritable(knob)) {
      return false;
    }
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
      Files.writeString(knob, "3\n");
      return true;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
