package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.cli.options.LayoutOptions;
import io.tessera.client.AsyncTesseraFileSystem;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotChange;
import io.tessera.common.config.DataSize;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench snapshot-read-diff}: reading a large file from a snapshot against reading
 * the live file (after the live file was overwritten, so the two are different shard versions), and
 * diffing two snapshots that many file creations apart.
 */
@Command(
    name = "snapshot-read-diff",
    mixinStandardHelpOptions = true,
    description = {
      "Read MB/s of a file from a snapshot against the live file, and the time a snapshot diff takes.",
      "Reads are the best of --rounds (the live file overwritten since the snapshot); the diff is between two"
          + " snapshots --files creations apart."
    })
public final class SnapshotReadDiffCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Mixin LayoutOptions layout;

  @Option(
      names = "--size",
      defaultValue = "1G",
      description = "bytes of the file read (default ${DEFAULT-VALUE})")
  String size;

  @Option(
      names = "--files",
      defaultValue = "100000",
      description = "files created between the diffed snapshots (default ${DEFAULT-VALUE})")
  int files;

  @Option(
      names = "--rounds",
      defaultValue = "2",
      description = "reads of each kind (default ${DEFAULT-VALUE})")
  int rounds;

  @Option(
      names = "--dir",
      defaultValue = "/bench/snapshot-read-diff",
      description = "cluster directory for the files")
  String dir;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    long bytes = DataSize.parse(size);
    if (bytes < 1 || files < 1 || rounds < 1) {
      throw new IllegalArgumentException("--size, --files and --rounds must be at least 1");
    }
    CreateOptions o = layout.toOptions();
    String tag = "bench-" + ProcessHandle.current().pid();
    try (TesseraFileSystem fs = cluster.connect()) {
      fs.mkdirs(dir);
      String big = dir + "/big";
      fill(fs, big, bytes, (o == null ? CreateOptions.defaults() : o).overwrite(true), 1);
      String many =
          dir + "/many"; // exists in both snapshots: the diff lists every file created in it
      fs.mkdirs(many);
      fs.admin().snapshots().create(tag + "-a");
      fill(fs, big, bytes, null, 2); // overwritten in place: the snapshot keeps the first versions
      String old = "/.snapshots/" + tag + "-a" + big;
      double live = 0;
      double snap = 0;
      for (int r = 0; r < rounds; r++) {
        live = Math.max(live, read(fs, big, bytes));
        snap = Math.max(snap, read(fs, old, bytes));
      }
      out.printf(
          Locale.ROOT,
          "read %s (%s): live %.1f MB/s, from a snapshot %.1f MB/s (%.2fx)%n",
          DataSize.format(bytes),
          fs.stat(big).layout(),
          live,
          snap,
          snap / live);
      out.flush();

      long t0 = System.nanoTime();
      AsyncTesseraFileSystem async = fs.async();
      Semaphore inFlight = new Semaphore(64);
      List<CompletableFuture<?>> creates = new ArrayList<>();
      for (int i = 0; i < files; i++) {
        inFlight.acquire();
        creates.add(
            async
                .create(many + "/f" + i, CreateOptions.defaults())
                .whenComplete((f, e) -> inFlight.release()));
      }
      CompletableFuture.allOf(creates.toArray(CompletableFuture[]::new)).join();
      out.printf(
          Locale.ROOT, "created %d files in %.1f s%n", files, (System.nanoTime() - t0) / 1e9);
      fs.admin().snapshots().create(tag + "-b");
      long d0 = System.nanoTime();
      List<SnapshotChange> changes = fs.admin().snapshots().diff(tag + "-a", tag + "-b");
      double diffSecs = (System.nanoTime() - d0) / 1e9;
      out.printf(
          Locale.ROOT,
          "diff of two snapshots %d files apart: %d change(s) in %.2f s%n",
          files,
          changes.size(),
          diffSecs);
      fs.admin().snapshots().delete(tag + "-a");
      fs.admin().snapshots().delete(tag + "-b");
      fs.delete(dir, true);
      return 0;
    }
  }

  private static void fill(
      TesseraFileSystem fs, String path, long bytes, CreateOptions opts, int seed)
      throws Exception {
    Pattern p = new Pattern(seed, 4 << 20);
    byte[] buf = new byte[4 << 20];
    try (OutputStream out =
        opts == null ? fs.openFile(path).newOutputStream(0) : fs.create(path, opts)) {
      for (long pos = 0; pos < bytes; pos += buf.length) {
        int n = (int) Math.min(buf.length, bytes - pos);
        p.fill(buf, n, pos);
        out.write(buf, 0, n);
      }
    }
  }

  private static double read(TesseraFileSystem fs, String path, long bytes) throws Exception {
    byte[] buf = new byte[16 << 20];
    long t0 = System.nanoTime();
    try (TesseraFile f = fs.openFile(path);
        InputStream in = f.newInputStream(0)) {
      while (in.readNBytes(buf, 0, buf.length) > 0) {
        // reading is the work
      }
    }
    return bytes / 1e6 / ((System.nanoTime() - t0) / 1e9);
  }
}
