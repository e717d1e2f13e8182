package io.tessera.client.admin;

import io.tessera.client.AttributeChange;
import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.Futures;
import io.tessera.client.LayoutPolicy;
import io.tessera.client.TesseraFile;
import io.tessera.client.VirtualFileSystem;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Brings a file or a tree back to what a snapshot holds, as a new version: a file that differs is
 * copied from {@code /.snapshots/<name>/...} into a new file at its path (same layout, mode and
 * mtime); entries the snapshot did not have are removed, and every entry gets back the mode it had.
 * A file whose inode, size and mtime match and that no data server holds a newer version of is
 * unchanged, and left alone, so restoring a mostly unchanged tree costs little. Directories get
 * back their mode and mtime once their entries are restored. A dry run walks the same way and
 * changes nothing: it tells what a restore would copy and remove.
 */
public final class SnapshotRestorer {
  private static final int COPY_BUFFER = 8 << 20;

  /** The most removed paths a result names; the count goes on past them. */
  static final int REMOVED_NAMED = 1000;

  /**
   * What a restore did, or for a dry run would do.
   *
   * @param filesCopied files copied back from the snapshot
   * @param bytesCopied their bytes
   * @param filesUnchanged files left alone because they had not changed since the snapshot
   * @param entriesRemoved files and directories removed because the snapshot did not have them (a
   *     directory counts once, with everything below it)
   * @param removed their paths, the first {@value #REMOVED_NAMED}
   * @param dryRun whether nothing was changed
   */
  public record Result(
      long filesCopied,
      long bytesCopied,
      long filesUnchanged,
      long entriesRemoved,
      List<String> removed,
      boolean dryRun) {}

  private final VirtualFileSystem fs;
  private final Snapshots snapshots;
  private long copied;
  private long bytes;
  private long unchanged;
  private long removed;
  private final List<String> removedPaths = new ArrayList<>();
  private LongConsumer progress = b -> {};
  private Set<Long> writtenSince;
  private boolean dryRun;

  SnapshotRestorer(VirtualFileSystem fs, Snapshots snapshots) {
    this.fs = fs;
    this.snapshots = snapshots;
  }

  Result restore(String name, String path, LongConsumer onProgress, boolean dryRun)
      throws IOException {
    this.dryRun = dryRun;
    String target = VirtualFileSystem.normalize(path);
    if (target.equals("/.snapshots") || target.startsWith("/.snapshots/")) {
      throw new TesseraException(
          StatusProto.INVALID_ARGUMENT, "restore a path of the live file system, not " + target);
    }
    SnapshotInfo snapshot =
        Futures.get(snapshots.listAsync()).stream()
            .filter(s -> s.name().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new TesseraException(
                        StatusProto.NOT_FOUND,
                        "no snapshot called '" + name + "' (tessera snapshot list shows them)"));
    if (onProgress != null) {
      progress = onProgress;
    }
    String source = snapshot.path() + (target.equals("/") ? "" : target);
    FileStatus from;
    try {
      from = Futures.get(fs.stat(source));
    } catch (TesseraException.NotFoundException e) {
      throw new TesseraException(
          StatusProto.NOT_FOUND, target + " did not exist in snapshot '" + name + "'");
    }
    // null: some data server could not say, so every file is copied
    writtenSince = Futures.get(snapshots.filesWritten(snapshot.epoch(), Long.MAX_VALUE));
    FileStatus to = statOrNull(target);
    if (from.directory()) {
      if (to != null && !to.directory()) {
        remove(target);
        to = null;
      }
      if (to == null && !dryRun) {
        to = Futures.get(fs.mkdir(target, true, null));
      }
      restoreTree(source, target, from, to);
    } else {
      restoreFile(source, target, from, to);
    }
    return new Result(copied, bytes, unchanged, removed, List.copyOf(removedPaths), dryRun);
  }

  /**
   * Restores directory {@code target} (null {@code to}: not there live) from {@code source}: its
   * entries first, then its own mode and mtime, which restoring them changed.
   */
  private void restoreTree(String source, String target, FileStatus from, FileStatus to)
      throws IOException {
    long changesBefore = copied + removed;
    List<FileStatus[]> work = new ArrayList<>();
    DirectoryCursor a = new DirectoryCursor(fs, source);
    DirectoryCursor b = to == null ? null : new DirectoryCursor(fs, target);
    // decide first, change afterwards: the live directory is listed while it would change
    while (a.head() != null || (b != null && b.head() != null)) {
      FileStatus live = b == null ? null : b.head();
      int c = a.head() == null ? 1 : live == null ? -1 : a.head().name().compareTo(live.name());
      if (c <= 0) {
        work.add(new FileStatus[] {a.head(), c == 0 ? live : null});
        a.advance();
      } else {
        work.add(new FileStatus[] {null, live});
      }
      if (c >= 0) {
        b.advance();
      }
    }
    for (FileStatus[] w : work) {
      FileStatus entryFrom = w[0];
      FileStatus entryTo = w[1];
      String name = entryFrom != null ? entryFrom.name() : entryTo.name();
      String dst = (target.equals("/") ? "" : target) + "/" + name;
      if (entryFrom == null) {
        remove(dst);
        continue;
      }
      if (entryTo != null && entryTo.directory() != entryFrom.directory()) {
        remove(dst);
        entryTo = null;
      }
      if (entryFrom.directory()) {
        if (entryTo == null && !dryRun) {
          entryTo = Futures.get(fs.mkdir(dst, false, null));
        }
        restoreTree(source + "/" + name, dst, entryFrom, entryTo);
      } else {
        restoreFile(source + "/" + name, dst, entryFrom, entryTo);
      }
    }
    boolean entriesChanged = copied + removed != changesBefore;
    if (!dryRun
        && (entriesChanged
            || to.mode() != from.recordedMode()
            || !to.modified().equals(from.modified()))) {
      change(target, new AttributeChange(from.recordedMode(), null, null, from.modified()));
    }
  }

  /** Removes {@code path} (with everything below it) and names it in the result. */
  private void remove(String path) throws IOException {
    if (!dryRun) {
      Futures.get(fs.delete(path, true));
    }
    removed++;
    if (removedPaths.size() < REMOVED_NAMED) {
      removedPaths.add(path);
    }
  }

  private void restoreFile(String source, String target, FileStatus from, FileStatus to)
      throws IOException {
    if (to != null
        && to.fileId() == from.fileId()
        && to.size() == from.size()
        && to.modified().equals(from.modified())
        && writtenSince != null
        && !writtenSince.contains(to.fileId())) {
      if (!dryRun) {
        keepMode(target, from, to);
      }
      unchanged++;
      return;
    }
    if (dryRun) {
      copied++;
      bytes += from.size();
      return;
    }
    LayoutPolicy layout =
        from.log() != null
            ? from.log().layout()
            : new LayoutPolicy(
                from.layout().dataUnits(),
                from.layout().parityUnits(),
                from.layout().stripeUnit(),
                false);
    CreateOptions options =
        (layout.parityUnits() > 0
                ? CreateOptions.erasure(layout.dataUnits(), layout.parityUnits())
                : CreateOptions.striped(layout.dataUnits()))
            .stripeUnit(layout.stripeUnit())
            .log(layout.log())
            .mode(from.recordedMode() | 0200)
            .overwrite(true);
    byte[] buf = new byte[(int) Math.min(COPY_BUFFER, Math.max(1, from.size()))];
    try (TesseraFile in = Futures.get(fs.open(source));
        TesseraFile copy = Futures.get(fs.create(target, options));
        OutputStream out = copy.newOutputStream(0)) {
      for (long pos = 0; pos < from.size(); ) {
        int n = in.read(pos, buf, 0, (int) Math.min(buf.length, from.size() - pos));
        if (n <= 0) {
          break;
        }
        out.write(buf, 0, n);
        pos += n;
        bytes += n;
        progress.accept(bytes);
      }
    }
    change(target, new AttributeChange(from.recordedMode(), null, null, from.modified()));
    copied++;
  }

  /** Gives the entry at {@code target} the mode it had in the snapshot, where it differs. */
  private void keepMode(String target, FileStatus from, FileStatus to) throws IOException {
    if (to == null || to.mode() != from.recordedMode()) {
      change(target, AttributeChange.mode(from.recordedMode()));
    }
  }

  private void change(String target, AttributeChange change) throws IOException {
    Futures.get(fs.changeAttributes(target, 0, change));
  }

  private FileStatus statOrNull(String path) throws IOException {
    try {
      return Futures.get(fs.stat(path));
    } catch (TesseraException.NotFoundException e) {
      return null;
    }
  }
}
