package io.tessera.cli.snapshot;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.Tessera;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotRestorer;
import io.tessera.common.config.DataSize;
import java.io.Console;
import java.io.PrintWriter;
import java.util.Locale;
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
      "A restore that would remove entries (created since the snapshot) names them and asks first:"
          + " at a terminal it waits for y, elsewhere it stops unless --yes is given."
          + " --dry-run shows everything a restore would do and changes nothing.",
      "With --all --yes the whole file system rolls back (the snapshots themselves stay)."
    })
public final class SnapshotRestoreCommand extends ConnectedCommand {
  /** Removed paths a report names before "and N more". */
  private static final int NAMED = 20;

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
      description =
          "go ahead without asking, though entries are removed (--all: confirms that everything"
              + " written since the snapshot is lost)")
  boolean yes;

  @Option(
      names = "--dry-run",
      description = "show what the restore would copy and remove; change nothing")
  boolean dryRun;

  @Override
  protected void checkArguments() {
    SnapshotArguments.checkNames(name);
    if (all == (path != null)) {
      throw new IllegalArgumentException(
          "give either a PATH or --all (tessera snapshot restore --help)");
    }
    if (all && !yes && !dryRun) {
      throw new IllegalArgumentException(
          "--all rolls the whole file system back to '"
              + name
              + "' and loses every change made since; add --yes to confirm (--dry-run shows what"
              + " it would do)");
    }
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    String target = all ? "/" : path;
    String what = all ? "everything" : target;
    if (dryRun) {
      SnapshotRestorer.Result plan = fs.admin().snapshots().planRestore(name, target);
      out()
          .printf(
              Locale.ROOT,
              "Restoring %s from %s would copy %d file(s) (%s), leave %d unchanged and remove %d"
                  + " entr%s%s%n",
              what,
              name,
              plan.filesCopied(),
              DataSize.format(plan.bytesCopied()),
              plan.filesUnchanged(),
              plan.entriesRemoved(),
              plan.entriesRemoved() == 1 ? "y" : "ies",
              plan.entriesRemoved() > 0 ? " created since the snapshot:" : "");
      plan.removed().forEach(p -> out().println("  - " + p));
      return 0;
    }
    if (!yes) {
      SnapshotRestorer.Result plan = fs.admin().snapshots().planRestore(name, target);
      if (plan.entriesRemoved() > 0 && !confirmed(plan, what)) {
        return Tessera.EXIT_USAGE;
      }
    }
    long start = System.nanoTime();
    AtomicLong lastReport = new AtomicLong(start);
    SnapshotRestorer.Result r =
        fs.admin()
            .snapshots()
            .restore(
                name,
                target,
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
            Locale.ROOT,
            "Restored %s from %s: %d file(s) copied (%s), %d unchanged, %d entr%s removed, in %.1f"
                + " s%n",
            what,
            name,
            r.filesCopied(),
            DataSize.format(r.bytesCopied()),
            r.filesUnchanged(),
            r.entriesRemoved(),
            r.entriesRemoved() == 1 ? "y" : "ies",
            secs);
    listRemoved(out(), r, "  removed ");
    return 0;
  }

  /**
   * Whether the user agrees to the removals: asked at a terminal; a script (no terminal) is told
   * what would go and how to go ahead, and nothing is changed.
   */
  private boolean confirmed(SnapshotRestorer.Result plan, String what) {
    PrintWriter err = err();
    err.printf(
        Locale.ROOT,
        "Restoring %s from %s removes %d entr%s created since the snapshot:%n",
        what,
        name,
        plan.entriesRemoved(),
        plan.entriesRemoved() == 1 ? "y" : "ies");
    listRemoved(err, plan, "  - ");
    Console console = System.console();
    if (console == null) {
      err.println(
          "Nothing changed: add --yes to restore and remove them (--dry-run lists all it would do).");
      err.flush();
      return false;
    }
    err.flush();
    String answer = console.readLine("Restore and remove them? [y/N] ");
    if (answer != null && answer.trim().toLowerCase(Locale.ROOT).startsWith("y")) {
      return true;
    }
    err.println("Nothing changed.");
    return false;
  }

  private static void listRemoved(PrintWriter w, SnapshotRestorer.Result r, String prefix) {
    r.removed().stream().limit(NAMED).forEach(p -> w.println(prefix + p));
    if (r.entriesRemoved() > NAMED) {
      w.printf(Locale.ROOT, "  ... and %d more%n", r.entriesRemoved() - NAMED);
    }
    w.flush();
  }
}
