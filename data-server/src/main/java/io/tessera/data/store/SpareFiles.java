package io.tessera.data.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files of removed values, kept to hold the next values instead of being unlinked. On ext4 without
 * a journal, creating a file skips every inode freed in the last minutes, reading each one's
 * inode-table block to tell, so creates after many deletes were slow (figures in
 * docs/benchmarks/2026-11-26-figures-from-comments.md). Renaming a spare into place costs what a
 * create costs with nothing freed, and its blocks are written over instead of allocated again.
 *
 * <p>Spares live in one directory, named {@code spare-<counter>}; at most {@code maxBytes} of them
 * are kept (the rest are unlinked), those a previous run left included.
 */
final class SpareFiles {
  private static final Logger LOG = LoggerFactory.getLogger(SpareFiles.class);

  private final Path dir;
  private final long maxBytes;
  private final ConcurrentLinkedDeque<Spare> spares = new ConcurrentLinkedDeque<>();
  private final AtomicLong keptBytes = new AtomicLong();
  private final AtomicLong nextName = new AtomicLong();

  private static final String PREFIX = "spare-";

  private record Spare(Path path, long size) {}

  SpareFiles(Path dir, long maxBytes) throws IOException {
    this.dir = Files.createDirectories(dir);
    this.maxBytes = maxBytes;
    adoptLeftovers();
  }

  /**
   * Keeps the spares a previous run left, up to the bound (a restarted server rewrites at once at
   * the speed it had before it stopped); unlinks the rest and any other file. No reader can hold
   * one across a restart, so each may be written over. What is not a regular file (a directory
   * someone made here) is left alone, its name never given to a spare.
   */
  private void adoptLeftovers() throws IOException {
    try (DirectoryStream<Path> left = Files.newDirectoryStream(dir)) {
      for (Path f : left) {
        long counter = counterOf(f.getFileName().toString());
        nextName.accumulateAndGet(counter, Math::max);
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          LOG.warn(
              "{} is not a spare value file: left alone, though only the data server's spares"
                  + " belong in {} (move it elsewhere)",
              f,
              dir);
          continue;
        }
        long size = counter < 0 ? -1 : Files.size(f);
        if (size < 0 || keptBytes.get() + size > maxBytes) {
          Files.deleteIfExists(f);
          continue;
        }
        keptBytes.addAndGet(size);
        spares.addLast(new Spare(f, size));
      }
    }
  }

  /** The counter in a spare's name, or -1 for a name no spare has. */
  private static long counterOf(String name) {
    if (!name.startsWith(PREFIX)) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(PREFIX.length()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Moves {@code file} ({@code size} bytes) among the spares, or unlinks it when they are full.
   * {@code unread} is asked after the move: a file some reader may still hold is unlinked then (its
   * reader keeps the old bytes), never written over.
   */
  void retire(Path file, long size, BooleanSupplier unread) throws IOException {
    if (keptBytes.addAndGet(size) > maxBytes) {
      keptBytes.addAndGet(-size);
      Files.delete(file);
      return;
    }
    Path spare = dir.resolve(PREFIX + nextName.incrementAndGet()); // no value file's name
    try {
      Files.move(file, spare, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      keptBytes.addAndGet(-size);
      throw e;
    }
    if (!unread.getAsBoolean()) {
      keptBytes.addAndGet(-size);
      Files.deleteIfExists(spare);
      return;
    }
    spares.addFirst(new Spare(spare, size));
  }

  /**
   * Renames a spare to {@code target} and returns true, or returns false when there is none (then
   * the caller creates the file). The file keeps its old bytes: the caller writes over them and
   * cuts it to its new length.
   */
  boolean reuseAs(Path target) throws IOException {
    for (Spare s; (s = spares.pollFirst()) != null; ) {
      keptBytes.addAndGet(-s.size());
      try {
        Files.move(s.path(), target, StandardCopyOption.ATOMIC_MOVE);
        return true;
      } catch (NoSuchFileException gone) {
        // removed by hand: try the next one
      }
    }
    return false;
  }

  /** Bytes held by spare files. */
  long keptBytes() {
    return keptBytes.get();
  }
}
