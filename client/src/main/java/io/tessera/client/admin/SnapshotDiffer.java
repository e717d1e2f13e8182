package io.tessera.client.admin;

import io.tessera.client.FileStatus;
import io.tessera.client.Futures;
import io.tessera.client.VirtualFileSystem;
import io.tessera.client.admin.SnapshotChange.Type;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares two snapshots (or a snapshot and the live file system) by walking both trees side by
 * side, one directory page at a time, so neither namespace is ever held in memory: only the
 * differences are. Entries are matched by name, then by inode id (an id that left one place and
 * appeared in another was renamed). A file with the same id is modified when its size or mtime
 * differ, or when a data server holds a version of it stamped between the two snapshots' epochs; a
 * directory is modified when its mode or owner differs (its mtime follows its entries, whose
 * changes are listed themselves).
 */
public final class SnapshotDiffer {
  private final Snapshots snapshots;
  private final VirtualFileSystem fs;

  SnapshotDiffer(Snapshots snapshots, VirtualFileSystem fs) {
    this.snapshots = snapshots;
    this.fs = fs;
  }

  private record Entry(String path, FileStatus status) {}

  private record Pair(String from, String to) {}

  /** From snapshot {@code fromName} to snapshot {@code toName}, or to the live tree when null. */
  public List<SnapshotChange> diff(String fromName, String toName) throws IOException {
    SnapshotInfo from = find(fromName);
    SnapshotInfo to = toName == null ? null : find(toName);
    long low = to == null ? from.epoch() : Math.min(from.epoch(), to.epoch());
    long high = to == null ? Long.MAX_VALUE : Math.max(from.epoch(), to.epoch());
    String toRoot = to == null ? "" : to.path();
    Set<Long> written = Futures.get(snapshots.filesWritten(low, high));
    if (written == null) {
      throw new TesseraException(
          StatusProto.UNAVAILABLE,
          "a data server is down, so files modified in place"
              + " between the snapshots cannot all be found; retry when tessera cluster status shows every server up");
    }
    List<SnapshotChange> changes = new ArrayList<>();
    Map<Long, Entry> gone = new HashMap<>();
    Map<Long, Entry> appeared = new HashMap<>();
    List<long[]> replaced = new ArrayList<>();
    Deque<Pair> dirs = new ArrayDeque<>();
    dirs.add(new Pair("", ""));
    while (!dirs.isEmpty()) {
      while (!dirs.isEmpty()) {
        compare(from.path(), toRoot, dirs.poll(), written, changes, gone, appeared, replaced, dirs);
      }
      // an id that left one place and appeared in another was renamed; a renamed directory's
      // contents are compared in turn
      for (Iterator<Map.Entry<Long, Entry>> it = gone.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<Long, Entry> g = it.next();
        Entry a = appeared.remove(g.getKey());
        if (a == null) {
          continue;
        }
        it.remove();
        boolean dir = a.status().directory();
        changes.add(new SnapshotChange(Type.RENAMED, a.path(), g.getValue().path(), dir));
        if (dir) {
          dirs.add(new Pair(g.getValue().path(), a.path()));
        } else if (modified(g.getValue().status(), a.status(), written)) {
          changes.add(new SnapshotChange(Type.MODIFIED, a.path(), null, false));
        }
      }
    }
    // a file replaced by a new one at its path (put --overwrite, restore), neither moved elsewhere:
    // that path was modified
    for (long[] r : replaced) {
      Entry g = gone.get(r[0]);
      Entry a = appeared.get(r[1]);
      if (g != null && a != null && !g.status().directory() && !a.status().directory()) {
        gone.remove(r[0]);
        appeared.remove(r[1]);
        changes.add(new SnapshotChange(Type.MODIFIED, a.path(), null, false));
      }
    }
    gone.values()
        .forEach(
            e ->
                changes.add(
                    new SnapshotChange(Type.DELETED, e.path(), null, e.status().directory())));
    appeared
        .values()
        .forEach(
            e ->
                changes.add(
                    new SnapshotChange(Type.CREATED, e.path(), null, e.status().directory())));
    changes.sort(Comparator.comparing(SnapshotChange::path).thenComparing(SnapshotChange::type));
    return changes;
  }

  /** {@code replaced}: {old id, new id} of entries whose name stayed while their inode changed. */
  private void compare(
      String rootA,
      String rootB,
      Pair dir,
      Set<Long> written,
      List<SnapshotChange> changes,
      Map<Long, Entry> gone,
      Map<Long, Entry> appeared,
      List<long[]> replaced,
      Deque<Pair> dirs)
      throws IOException {
    DirectoryCursor a = new DirectoryCursor(fs, under(rootA, dir.from()));
    DirectoryCursor b = new DirectoryCursor(fs, under(rootB, dir.to()));
    while (a.head() != null || b.head() != null) {
      int c =
          a.head() == null ? 1 : b.head() == null ? -1 : a.head().name().compareTo(b.head().name());
      if (c < 0) {
        gone.put(a.head().fileId(), new Entry(dir.from() + "/" + a.head().name(), a.head()));
        a.advance();
      } else if (c > 0) {
        appeared.put(b.head().fileId(), new Entry(dir.to() + "/" + b.head().name(), b.head()));
        b.advance();
      } else {
        FileStatus x = a.head();
        FileStatus y = b.head();
        String pathA = dir.from() + "/" + x.name();
        String pathB = dir.to() + "/" + y.name();
        if (x.fileId() != y.fileId() || x.directory() != y.directory()) {
          gone.put(x.fileId(), new Entry(pathA, x));
          appeared.put(y.fileId(), new Entry(pathB, y));
          replaced.add(new long[] {x.fileId(), y.fileId()});
        } else if (x.directory()) {
          if (x.recordedMode() != y.recordedMode() || !x.owner().equals(y.owner())) {
            changes.add(new SnapshotChange(Type.MODIFIED, pathB, null, true));
          }
          dirs.add(new Pair(pathA, pathB));
        } else if (modified(x, y, written)) {
          changes.add(new SnapshotChange(Type.MODIFIED, pathB, null, false));
        }
        a.advance();
        b.advance();
      }
    }
  }

  private static boolean modified(FileStatus x, FileStatus y, Set<Long> written) {
    return x.size() != y.size()
        || !x.modified().equals(y.modified())
        || x.recordedMode() != y.recordedMode()
        || !x.owner().equals(y.owner())
        || written.contains(y.fileId());
  }

  /** {@code dir} (a path from the root, "" for the root) below {@code root} ("" for the live). */
  private static String under(String root, String dir) {
    String p = root + dir;
    return p.isEmpty() ? "/" : p;
  }

  private SnapshotInfo find(String name) throws IOException {
    for (SnapshotInfo s : Futures.get(snapshots.listAsync())) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    throw new TesseraException(
        StatusProto.NOT_FOUND,
        "no snapshot called '" + name + "' (tessera snapshot list shows them)");
  }
}
