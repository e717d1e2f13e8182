package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.cli.options.LayoutOptions;
import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.DataSize;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * {@code tessera bench ior}: IOR-like. N clients each write a block of B bytes in transfers of T
 * bytes (one shared file, client i at offset i*B, or a file per client), then read it back; a
 * separate untimed pass verifies every byte. Timed phases only move bytes, as IOR and the HDFS peer
 * benchmark do. MB = 10^6 bytes.
 */
@Command(
    name = "ior",
    mixinStandardHelpOptions = true,
    description = {
      "IOR-like throughput: N clients write then read their blocks; every byte is verified in an "
          + "untimed pass. Each client has its own connection, as separate processes would.",
      "Reports MB/s (10^6 B/s) per phase: the median of --runs, with min and max."
    })
public final class IorCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Mixin LayoutOptions layout;

  @Option(
      names = "--clients",
      defaultValue = "1",
      description = "concurrent clients (default ${DEFAULT-VALUE})")
  int clients;

  @Option(
      names = "--block",
      defaultValue = "256M",
      description = "bytes per client, rounded down to whole transfers (default ${DEFAULT-VALUE})")
  String block;

  @Option(
      names = "--transfer",
      defaultValue = "4M",
      description = "bytes per write/read call (default ${DEFAULT-VALUE})")
  String transfer;

  @Option(
      names = "--file-per-client",
      description = "each client its own file (default: one shared file)")
  boolean filePerClient;

  @Option(
      names = "--strided",
      description = {
        "N-1 strided, as LANL's MPI-IO Test checkpoints: client c writes and reads transfers c,"
            + " c+N, c+2N, ... of the shared file, each one positional call (default: N-1"
            + " segmented, client c's block at c*B)",
        "the worst case of a striped file: writers meet in every stripe"
      })
  boolean strided;

  /** How a restart reads the checkpoint back (PLFS's uniform and non-uniform restart). */
  enum ReadPattern {
    uniform,
    nonuniform
  }

  @Option(
      names = "--read-pattern",
      defaultValue = "uniform",
      description = {
        "uniform: each client reads back what it wrote, as it wrote it; nonuniform: --readers"
            + " readers (a restart on another number of processes) each read one contiguous share"
            + " of the shared file in --read-transfer calls (default ${DEFAULT-VALUE})"
      })
  ReadPattern readPattern;

  @Option(names = "--readers", description = "readers of a nonuniform read (default: --clients)")
  Integer readers;

  @Option(
      names = "--read-transfer",
      paramLabel = "SIZE",
      description = "bytes per read call of a nonuniform read (default: --transfer)")
  String readTransfer;

  @Option(
      names = "--runs",
      defaultValue = "1",
      description = "timed repetitions; the median is reported (default ${DEFAULT-VALUE})")
  int runs;

  @Option(
      names = "--warmup",
      defaultValue = "block",
      description =
          "bytes per client of each untimed warm-up pass "
              + "(a write and a read; 0: none; default: as --block)")
  String warmup;

  @Option(
      names = "--warmup-passes",
      defaultValue = "auto",
      description = {
        "warm-up passes: a number, or auto: "
            + "until a pass writes within 10 %% of the rate of the pass before, at most 6 (default ${DEFAULT-VALUE})",
        "a cluster just started is slower for its first gigabytes while every server JVM compiles its I/O path"
      })
  String warmupPasses;

  @Option(
      names = "--unbuffered",
      description = {
        "each transfer is one positional write, as IOR's POSIX "
            + "backend does (default: an output stream gathers whole stripes)",
        "with parity, transfers smaller than a "
            + "stripe then take the two-phase partial-stripe path"
      })
  boolean unbuffered;

  @Option(
      names = "--rewrite",
      description = {
        "every write pass writes the same file(s) again, in place "
            + "(default: each pass writes new files, replacing the last pass's, as IOR does between repetitions and as "
            + "the HDFS peer does)",
        "a rewrite records no new size and stores each unit in a removed unit's file"
      })
  boolean rewrite;

  @Option(
      names = "--keep",
      description = "leave the test files (named <dir>/ior-kept-N) for a later --read-only run")
  boolean keep;

  @Option(
      names = "--read-only",
      description = {
        "time reads only, of the files a --keep run with the same "
            + "--clients, --block and --file-per-client left",
        "e.g. to read with data servers killed in between"
      })
  boolean readOnly;

  @Option(
      names = "--dir",
      defaultValue = "/bench/ior",
      description = "cluster directory for the test files")
  String dir;

  @Option(
      names = "--verify",
      defaultValue = "true",
      negatable = true,
      fallbackValue = "true",
      description =
          "check every byte in an untimed pass after the last run (default ${DEFAULT-VALUE})")
  boolean verify;

  @Option(
      names = "--drop-caches",
      defaultValue = "false",
      negatable = true,
      fallbackValue = "true",
      description = {
        "drop the whole machine's page cache before reading (needs root; it slows every other "
            + "program on the machine for a while, so only when asked; default ${DEFAULT-VALUE})"
      })
  boolean dropCaches;

  @Option(
      names = "--sync-before-read",
      description = {
        "flush the machine's dirty pages (sync, untimed) before each timed read, so the read does "
            + "not share disks and cores with the write-back of what the write just wrote; each run "
            + "says how much was dirty"
      })
  boolean syncBeforeRead;

  private long blockBytes;
  private int transferBytes;
  private IorPattern pattern;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    blockBytes = DataSize.parse(block);
    long transferAsked = DataSize.parse(transfer);
    if (clients < 1
        || runs < 1
        || transferAsked < 1
        || transferAsked > (1 << 30)
        || blockBytes < transferAsked) {
      throw new IllegalArgumentException(
          "--clients and --runs must be >= 1, --transfer from 1 byte to 1 GiB and --block at"
              + " least one --transfer");
    }
    transferBytes = (int) transferAsked;
    long warmBytes =
        (warmup.equals("block") ? blockBytes : DataSize.parse(warmup))
            / transferBytes
            * transferBytes;
    if (blockBytes % transferBytes != 0) {
      // checkpoint records (47,001 bytes in LANL's MPI-IO Test) rarely divide a round block
      long whole = blockBytes / transferBytes * transferBytes;
      out.printf(
          Locale.ROOT,
          "block: %d whole transfers of %d bytes, %d bytes per client%n",
          whole / transferBytes,
          transferBytes,
          whole);
      blockBytes = whole;
    }
    if (strided && filePerClient) {
      throw new IllegalArgumentException(
          "--strided interleaves the clients in one shared file: leave out --file-per-client");
    }
    boolean restart = readPattern == ReadPattern.nonuniform;
    if (restart && filePerClient) {
      throw new IllegalArgumentException(
          "--read-pattern nonuniform reads one shared file: leave out --file-per-client");
    }
    int readerCount = restart && readers != null ? readers : clients;
    long readTransferBytes = readTransfer == null ? transferBytes : DataSize.parse(readTransfer);
    if ((readers != null && readers < 1)
        || readTransferBytes < 1
        || readTransferBytes > (1 << 30)) {
      throw new IllegalArgumentException(
          "--readers must be >= 1 and --read-transfer from 1 byte to 1 GiB");
    }
    CreateOptions o = layout.toOptions();
    pattern = new IorPattern(clients, transferBytes, strided, filePerClient, unbuffered);
    SteadyState steady = SteadyState.of(warmupPasses);
    List<TesseraFileSystem> fss = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(clients, readerCount));
    try {
      for (int i = 0; i < Math.max(clients, readerCount); i++) {
        fss.add(cluster.connect());
      }
      TesseraFileSystem fs = fss.get(0);
      fs.mkdirs(dir);
      CreateOptions opts = (o == null ? CreateOptions.defaults() : o).overwrite(true);
      String prefix =
          dir + (keep || readOnly ? "/ior-kept" : "/ior-" + ProcessHandle.current().pid());
      List<String> files = readOnly ? existing(fs, prefix) : create(fs, prefix, opts);
      out.printf(
          Locale.ROOT,
          "ior: %d client(s), block %s, transfer %s, %s, layout %s, %d run(s), %s%n",
          clients,
          DataSize.format(blockBytes),
          DataSize.format(transferBytes),
          filePerClient ? "file per client" : strided ? "shared file, strided" : "shared file",
          layoutOf(fs.stat(files.get(0))),
          runs,
          readOnly
              ? "reads only"
              : rewrite ? "every pass rewrites the same files" : "new files every pass");
      if (restart) {
        out.printf(
            Locale.ROOT,
            "reads: nonuniform restart, %d reader(s), each one contiguous share in %s calls%n",
            readerCount,
            DataSize.format(readTransferBytes));
      }
      Callable<Void> fresh =
          () -> {
            if (!rewrite && !readOnly) {
              recreate(fs, files, opts);
            }
            return null;
          };
      out.flush();
      if (warmBytes > 0) {
        warmUp(out, pool, fss, files, warmBytes, steady, fresh);
      }
      long total = blockBytes * clients;
      double[] writes = new double[runs];
      double[] reads = new double[runs];
      for (int r = 0; r < runs; r++) {
        long refusedBefore = lockRefusals(fss);
        fresh.call();
        double seconds =
            readOnly
                ? Double.NaN
                : phase(
                    pool,
                    i ->
                        pattern.write(
                            fss.get(i),
                            pattern.file(files, i),
                            pattern.offset(i, blockBytes),
                            blockBytes,
                            i));
        writes[r] = total / 1e6 / seconds;
        long refused = lockRefusals(fss) - refusedBefore;
        String flushed = syncBeforeRead ? DirtyPages.flush() : "";
        boolean dropped = dropCaches && dropPageCache();
        reads[r] =
            total
                / 1e6
                / (restart
                    ? phase(
                        pool,
                        readerCount,
                        i ->
                            IorPattern.readShare(
                                fss.get(i),
                                files.get(0),
                                total,
                                readerCount,
                                i,
                                (int) readTransferBytes))
                    : phase(
                        pool,
                        i ->
                            pattern.read(
                                fss.get(i),
                                pattern.file(files, i),
                                pattern.offset(i, blockBytes),
                                blockBytes,
                                i,
                                false)));
        String write =
            readOnly
                ? "write not timed (--read-only)"
                : String.format(
                    Locale.ROOT,
                    "write %.1f MB/s (%d lock refusals, %.1f/s)",
                    writes[r],
                    refused,
                    refused / seconds);
        String open = logOpen(fs, files.get(0));
        out.printf(
            Locale.ROOT,
            "  run %d: %s, read %.1f MB/s%s%s%s%n",
            r + 1,
            write,
            reads[r],
            flushed,
            dropped ? " (page cache dropped before reading)" : "",
            open);
        out.flush();
      }
      if (!readOnly) {
        out.printf(Locale.ROOT, "write: %s MB/s%n", summary(writes));
      }
      out.printf(Locale.ROOT, "read:  %s MB/s%n", summary(reads));
      if (verify) {
        phase(
            pool,
            i ->
                pattern.read(
                    fss.get(i),
                    pattern.file(files, i),
                    pattern.offset(i, blockBytes),
                    blockBytes,
                    i,
                    true));
        out.printf(
            Locale.ROOT,
            "verified: every byte of %s read back as written%n",
            DataSize.format(total));
      }
      if (keep || readOnly) {
        out.printf(Locale.ROOT, "kept: %s%n", String.join(" ", files));
        return 0;
      }
      for (String f : files) {
        fs.delete(f, false);
      }
      return 0;
    } finally {
      pool.shutdownNow();
      fss.forEach(TesseraFileSystem::close);
    }
  }

  /**
   * Untimed write and read passes until the rates settle (or as many as asked); prints their rates.
   */
  private void warmUp(
      PrintWriter out,
      ExecutorService pool,
      List<TesseraFileSystem> fss,
      List<String> files,
      long warmBytes,
      SteadyState steady,
      Callable<Void> fresh)
      throws Exception {
    double total = warmBytes * (double) fss.size() / 1e6;
    steady.warmUpAll(
        () -> {
          fresh.call();
          double written =
              readOnly
                  ? Double.NaN
                  : total
                      / phase(
                          pool,
                          i ->
                              pattern.write(
                                  fss.get(i),
                                  pattern.file(files, i),
                                  pattern.offset(i, warmBytes),
                                  warmBytes,
                                  i));
          double read =
              total
                  / phase(
                      pool,
                      i ->
                          pattern.read(
                              fss.get(i),
                              pattern.file(files, i),
                              pattern.offset(i, warmBytes),
                              warmBytes,
                              i,
                              false));
          return readOnly ? new double[] {read} : new double[] {written, read};
        });
    out.printf(
        Locale.ROOT,
        "warm-up, untimed: %d pass(es) of %s per client, %s MB/s%n",
        steady.rates().size(),
        DataSize.format(warmBytes),
        readOnly
            ? "read " + steady.ratesText()
            : "write " + steady.ratesText() + "; read " + steady.ratesText(1));
    out.flush();
  }

  private List<String> existing(TesseraFileSystem fs, String prefix) throws IOException {
    List<String> files = new ArrayList<>();
    for (int i = 0; i < (filePerClient ? clients : 1); i++) {
      String f = prefix + "-" + i;
      long need = filePerClient ? blockBytes : blockBytes * clients;
      if (!fs.exists(f) || fs.stat(f).size() < need) {
        throw new IllegalArgumentException(
            f
                + " is missing or shorter than "
                + need
                + " bytes: run the same "
                + "bench with --keep first");
      }
      files.add(f);
    }
    return files;
  }

  private List<String> create(TesseraFileSystem fs, String prefix, CreateOptions opts)
      throws IOException {
    List<String> files = new ArrayList<>();
    for (int i = 0; i < (filePerClient ? clients : 1); i++) {
      files.add(prefix + "-" + i);
    }
    recreate(fs, files, opts);
    return files;
  }

  /**
   * Creates each test file anew, empty (untimed; a file already there is replaced): the next pass
   * grows it.
   */
  private static void recreate(TesseraFileSystem fs, List<String> files, CreateOptions opts)
      throws IOException {
    for (String f : files) {
      fs.createFile(f, opts).close();
    }
  }

  /** "median [min-max]" of the runs. */
  static String summary(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    double median =
        v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    return v.length == 1
        ? String.format(Locale.ROOT, "%.1f", median)
        : String.format(Locale.ROOT, "%.1f [%.1f-%.1f]", median, v[0], v[v.length - 1]);
  }

  private static long lockRefusals(List<TesseraFileSystem> fss) {
    return fss.stream().mapToLong(f -> f.ioCounters().lockRefusals.get()).sum();
  }

  private interface ClientTask {
    void run(int client) throws Exception;
  }

  private double phase(ExecutorService pool, ClientTask task) throws Exception {
    return phase(pool, clients, task);
  }

  private static double phase(ExecutorService pool, int tasks, ClientTask task) throws Exception {
    long start = System.nanoTime();
    List<Future<?>> fs = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      int c = i;
      fs.add(
          pool.submit(
              () -> {
                task.run(c);
                return null;
              }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * For a log file: ", open N ms (E index entries, flattened)", the time from open to its first
   * byte read (what merging the indexes costs a restart); "" for a striped file.
   */
  private static String logOpen(TesseraFileSystem fs, String path) throws IOException {
    FileStatus s = fs.stat(path);
    if (s.log() == null) {
      return "";
    }
    long start = System.nanoTime();
    try (TesseraFile f = fs.openFile(path)) {
      f.read(0, new byte[1], 0, 1);
    }
    return String.format(
        Locale.ROOT,
        ", open %.0f ms (%d index entries, %s)",
        (System.nanoTime() - start) / 1e6,
        s.log().indexEntries(),
        s.log().flattened() ? "flattened" : "not flattened");
  }

  /** "RS 4+2, unit 1 MiB", or "log, RS 4+2, unit 1 MiB" for a log file. */
  static String layoutOf(FileStatus s) {
    return s.log() != null ? s.log().layout().toString() : String.valueOf(s.layout());
  }

  private static boolean dropPageCache() {
    Path knob = Path.of("/proc/sys/vm/drop_caches");
    if (!Files.isWritable(knob)) {
      return false;
    }
    try {
      DirtyPages.sync();
      Files.writeString(knob, "3\n");
      return true;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
