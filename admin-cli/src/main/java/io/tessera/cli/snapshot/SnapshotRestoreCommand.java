package io.tessera.cli.snapshot;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.Tessera;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotRestorer;
import io.tessera.common.config.DataSize;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera snapshot restore NAME (PATH | --all --yes)}. */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description = {
      "Make PATH (a file or a whole tree) what it was in snapshot NAME, as a new version.",
      "Files that differ are copied back, entries the snapshot lacks are removed, unchanged files are left;"
          + " every entry gets back the mode and mtime it had.",
      "With --all --yes the whole file system rolls back (the snapshots themselves stay)."
    })
public final class SnapshotRestoreCommand extends ConnectedCommand {
  @Parameters(index = "0", paramLabel = "NAME")
  String name;

  @Parameters(
      index = "1",
      paramLabel = "PATH",
      arity = "0..1",
      description = "file or directory to restore")
  String path;

  @Option(names = "--all", description = "restore the whole file system")
  boolean all;

  @Option(
      names = "--yes",
      description = "confirm --all (everything written since the snapshot is lost)")
  boolean yes;

  @Override
  protected void checkArguments() {
    SnapshotArguments.checkNames(name);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    if (all == (path != null)) {
      err().println("Give either a PATH or --all (tessera snapshot restore --help)");
      return Tessera.EXIT_USAGE;
    }
    if (all && !yes) {
      err()
          .println(
              "--all rolls the whole file system back to '"
                  + name
                  + "' and loses every change made since;"
                  + " add --yes to confirm");
      return Tessera.EXIT_USAGE;
    }
    long start = System.nanoTime();
    AtomicLong lastReport = new AtomicLong(start);
    SnapshotRestorer.Result r =
        fs.admin()
            .snapshots()
            .restore(
                name,
                all ? "/" : path,
                bytes -> {
                  long now = System.nanoTime();
                  if (now - lastReport.get() > 1_000_000_000L) {
                    lastReport.set(now);
                    err().printf("  %s copied...%n", DataSize.format(bytes));
                    err().flush();
                  }
                });
    double secs = (System.nanoTime() - start) / 1e9;
    out()
        .printf(
            "Restored %s from %s: %d file(s) copied (%s), %d unchanged, %d entr%s removed, in %.1f s%n",
            all ? "everything" : path,
            name,
            r.filesCopied(),
            DataSize.format(r.bytesCopied()),
            r.filesUnchanged(),
            r.entriesRemoved(),
            r.entriesRemoved() == 1 ? "y" : "ies",
            secs);
    return 0;
  }
}
