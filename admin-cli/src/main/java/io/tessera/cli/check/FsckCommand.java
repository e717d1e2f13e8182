package io.tessera.cli.check;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.Tessera;
import io.tessera.cli.options.ClusterOptions;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.cli.options.PositiveDuration;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.FileCheck;
import io.tessera.common.config.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tessera fsck}: checks the shards of every file under a path. */
@Command(
    name = "fsck",
    mixinStandardHelpOptions = true,
    description = {
      "Check the shards of a file, or of every file under a directory.",
      "Per file: stripes checked, parity mismatches, missing shards (server down or stale, shard corrupt, "
          + "parity absent beside data), unreadable stripes (fewer than k usable units).",
      "HEALTHY: nothing wrong. DEGRADED: readable, with less redundancy. DAMAGED: parity mismatches or "
          + "unreadable stripes.",
      "Without --verify-parity only the shards' presence is checked (cheap); with it every stripe is read and "
          + "its parity recomputed.",
      "With --repair, what can be repaired is: corrupt shards are rewritten by recovery (the command waits for "
          + "it), mismatched parity and parity missing beside data are recomputed from the data units; then the "
          + "files are checked again.",
      "Exit code 0 when every file is HEALTHY (after repair, with --repair), 1 otherwise."
    })
public final class FsckCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      defaultValue = "/",
      description = "file or directory to check (default: /)")
  String path;

  @Option(
      names = "--verify-parity",
      description = "read every stripe and check its parity against its data")
  boolean verifyParity;

  @Option(names = "--json", description = "print one JSON document for scripts")
  boolean json;

  @Option(
      names = "--repair",
      description = "repair corrupt or missing shards and mismatched parity, then check again")
  boolean repair;

  @Option(
      converter = PositiveDuration.class,
      names = "--repair-timeout",
      defaultValue = "10m",
      paramLabel = "DURATION",
      description =
          "how long --repair waits for recovery to rewrite shards, e.g. 90s, 10m (default: ${DEFAULT-VALUE})")
  Duration repairTimeout;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    List<FileCheck> checks = new ArrayList<>();
    try (TesseraFileSystem fs = cluster.connect()) {
      String root = path;
      FileStatus s = fs.stat(root);
      walk(fs, s, checks, out);
      if (repair && checks.stream().anyMatch(FileCheck::repairable)) {
        checks = repairAndRecheck(fs, checks, out, repairTimeout);
      }
    }
    long damaged = checks.stream().filter(c -> c.verdict().equals("DAMAGED")).count();
    long degraded = checks.stream().filter(c -> c.verdict().equals("DEGRADED")).count();
    long bare = checks.stream().filter(c -> !c.redundantByLayout()).count();
    long stripes = checks.stream().mapToLong(FileCheck::stripes).sum();
    long mismatches = checks.stream().mapToLong(FileCheck::parityMismatches).sum();
    if (json) {
      var doc = new LinkedHashMap<String, Object>();
      doc.put("files", checks);
      doc.put("stripes", stripes);
      doc.put("parityVerified", verifyParity);
      doc.put("parityMismatches", mismatches);
      doc.put("degradedFiles", degraded);
      doc.put("damagedFiles", damaged);
      doc.put("filesWithoutParity", bare);
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
    } else {
      out.printf(
          Locale.ROOT,
          "%d file(s), %d stripe(s)%s: %d healthy, %d degraded, %d damaged; %d parity "
              + "mismatch(es)%s%n",
          checks.size(),
          stripes,
          verifyParity ? " (parity verified)" : "",
          checks.size() - degraded - damaged,
          degraded,
          damaged,
          mismatches,
          bare == 0
              ? ""
              : "; "
                  + bare
                  + " without parity (not redundant by layout: one lost server loses their bytes)");
    }
    return damaged + degraded == 0 ? 0 : Tessera.EXIT_FAILED;
  }

  /**
   * Asks for every repair, waits until recovery has rewritten the shards, checks those files again.
   */
  private List<FileCheck> repairAndRecheck(
      TesseraFileSystem fs, List<FileCheck> checks, PrintWriter out, Duration repairTimeout)
      throws IOException, InterruptedException {
    List<FileCheck> repaired = checks.stream().filter(FileCheck::repairable).toList();
    for (FileCheck c : repaired) {
      fs.admin().repair(c);
    }
    if (!json) {
      out.printf(
          Locale.ROOT,
          "Repairing %d file(s): waiting for recovery to rewrite shards%n",
          repaired.size());
      out.flush();
    }
    long deadline = System.nanoTime() + repairTimeout.toNanos();
    for (FileCheck c : repaired) {
      while (!fs.stat(c.path()).staleServers().isEmpty()) {
        if (System.nanoTime() - deadline > 0) {
          throw new IOException(
              "recovery did not rewrite the shards of "
                  + c.path()
                  + " within "
                  + Durations.format(repairTimeout)
                  + " (see `tessera recover status`)");
        }
        Thread.sleep(250);
      }
    }
    List<FileCheck> out2 = new ArrayList<>();
    for (FileCheck c : checks) {
      if (!c.repairable()) {
        out2.add(c);
        continue;
      }
      FileCheck again = fs.admin().check(c.path(), verifyParity);
      out2.add(again);
      if (!json) {
        print(out, again, "after repair: ");
      }
    }
    return out2;
  }

  private void print(PrintWriter out, FileCheck c, String prefix) {
    out.printf(
        Locale.ROOT,
        "%s%-8s %s  (%s) stripes %d, parity %s, missing shards %d, unreadable stripes %d%s%n",
        prefix,
        c.verdict(),
        c.path(),
        c.layout(),
        c.stripes(),
        verifyParity
            ? c.parityVerified() + " verified / " + c.parityMismatches() + " mismatched"
            : "not verified",
        c.missingShards(),
        c.unreadableStripes(),
        (c.staleServers().isEmpty() ? "" : ", stale on " + String.join(",", c.staleServers()))
            + (c.redundantByLayout() ? "" : "; not redundant by layout (no parity)"));
    out.flush();
  }

  private void walk(TesseraFileSystem fs, FileStatus s, List<FileCheck> checks, PrintWriter out)
      throws IOException {
    if (!s.directory()) {
      FileCheck c = fs.admin().check(s.path(), verifyParity);
      checks.add(c);
      if (!json) {
        print(out, c, "");
      }
      return;
    }
    // "/" does not list /.snapshots; fsck /.snapshots (or one snapshot's path) checks snapshots
    for (FileStatus child : fs.list(s.path())) {
      walk(fs, child, checks, out);
    }
  }
}
