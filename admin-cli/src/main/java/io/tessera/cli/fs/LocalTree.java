package io.tessera.cli.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A local directory tree as {@code put -r} copies it: its directories (parents first), its regular
 * files and their bytes, and what it skips (symbolic links, devices, sockets, pipes), which are
 * never followed.
 */
record LocalTree(
    List<Path> directories, List<Path> files, long bytes, int skipped, Path firstSkipped) {

  static LocalTree walk(Path root) throws IOException {
    List<Path> dirs = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    long bytes = 0;
    int skipped = 0;
    Path firstSkipped = null;
    try (Stream<Path> all = Files.walk(root)) { // links are not followed
      for (Path p : (Iterable<Path>) all.sorted()::iterator) {
        if (p.equals(root)) {
          continue;
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          dirs.add(p);
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          files.add(p);
          bytes += Files.size(p);
        } else {
          skipped++;
          firstSkipped = firstSkipped == null ? p : firstSkipped;
        }
      }
    }
    return new LocalTree(List.copyOf(dirs), List.copyOf(files), bytes, skipped, firstSkipped);
  }

  /** {@code p} below {@code root}, with '/' between names, as a cluster path takes it. */
  static String relative(Path root, Path p) {
    return root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
  }

  /** ": N files, M directories below it". */
  String describe() {
    return String.format(
        Locale.ROOT, ": %d files, %d directories below it", files.size(), directories.size());
  }

  /** What was left out and why, or null when nothing was. */
  String skippedNote() {
    return skipped == 0
        ? null
        : String.format(
            Locale.ROOT,
            "skipped %d that are neither files nor directories (symbolic links, devices, sockets),"
                + " the first %s",
            skipped,
            firstSkipped);
  }
}
