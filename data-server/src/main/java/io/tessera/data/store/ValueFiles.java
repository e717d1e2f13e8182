package io.tessera.data.store;

import com.sun.nio.file.ExtendedOpenOption;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stored values of a stripe unit's size, one file each, named {@code
 * <bucket>/<fileId>.<stripe>.<unit>.<epoch>.<generation>}, holding exactly the value ({@code
 * crc32c(4) | bytes}). The version index names the current generation, so a value is replaced by
 * writing a new file and committing the index, never by writing over a file a reader may hold: a
 * crash leaves the old value or the new one, plus perhaps an unnamed file that {@link #sweep}
 * removes at the next start. Removed files are kept as {@link SpareFiles} for later values unless a
 * reader still holds them (readers are counted per file).
 *
 * <p>Why not RocksDB's blob files: every byte went through the log, a memtable and a flush first. A
 * file takes one gathering write from the network buffers; a read maps it or, for a whole uncached
 * unit, reads it past the page cache. Units a streaming writer replaced whole go past the cache too
 * (direct I/O where the file system allows it): copying every byte into new cache pages cost a data
 * server most of its CPU (docs/benchmarks/2026-11-26-figures-from-comments.md).
 *
 * <p>Durability: a written file survives SIGKILL; {@link #syncPending()} forces the files written
 * since the last sync, and their directories, to stable storage. A sync write forces its file
 * before the index names it.
 */
final class ValueFiles {
  /** Files written and not yet forced at which a writer forces them all (bounds the list). */
  private static final int MAX_UNSYNCED = 4096;

  private static final int BUCKETS = 256;

  /**
   * Direct writes start, and are as long as, a multiple of this; their buffers start at one too.
   */
  private static final int BLOCK = 4096;

  private static final byte[] ZEROS = new byte[BLOCK];

  /**
   * Direct writes up to this long use a buffer each writing thread keeps ({@link
   * #keptWriteBuffer}).
   */
  private static final int MAX_KEPT_WRITE_BUFFER = 4 << 20;

  private static final ThreadLocal<ByteBuffer> WRITE_BUFFER = new ThreadLocal<>();
  private static final Logger LOG = LoggerFactory.getLogger(ValueFiles.class);

  private final Path root;
  private final AtomicLong nextGeneration = new AtomicLong(1);
  private final AtomicLong storedBytes = new AtomicLong();
  private final Set<Path> unsynced = ConcurrentHashMap.newKeySet();
  private final Set<Path> unsyncedDirectories = ConcurrentHashMap.newKeySet();

  /** Files of removed values, reused for new ones. */
  private final SpareFiles spares;

  /** Files being read, with how many reads hold each: never reused while held. */
  private final Map<Path, Integer> readers = new ConcurrentHashMap<>();

  /** Whether files are written with direct I/O (false once the file system refused it). */
  private volatile boolean direct;

  /**
   * Whether uncached whole units are read with direct I/O (false once the file system refused it).
   */
  private volatile boolean directReads;

  /** The open option that asks for direct I/O. */
  private final OpenOption directOption;

  ValueFiles(Path root, ValueFileOptions options) throws IOException {
    this(root, options, ExtendedOpenOption.DIRECT);
  }

  /** For tests: {@code directOption} in place of O_DIRECT (one the file system refuses). */
  ValueFiles(Path root, ValueFileOptions options, OpenOption directOption) throws IOException {
    this.root = Files.createDirectories(root);
    this.direct = options.directWrites();
    this.directReads = options.directReads();
    this.directOption = directOption;
    this.spares = new SpareFiles(root.resolve("spare"), options.spareBytes());
    for (int b = 0; b < BUCKETS; b++) {
      Files.createDirectories(bucket(b));
    }
  }

  /** One stored value's file: which version of which shard, and which write of it. */
  record Ref(ShardId shard, long epoch, long generation) {}

  /**
   * Writes {@code parts} (crc first) as a new file for the version; forced now when {@code sync};
   * with direct I/O when {@code pastCache} (nothing will read it back soon) and the file system
   * allows it.
   */
  Ref write(ShardId shard, long epoch, ByteBuffer[] parts, boolean sync, boolean pastCache)
      throws IOException {
    Ref ref = new Ref(shard, epoch, nextGeneration.getAndIncrement());
    Path path = path(ref);
    long length;
    try {
      length =
          direct && pastCache ? writeDirect(path, parts, sync) : writeBuffered(path, parts, sync);
    } catch (IOException e) {
      Files.deleteIfExists(path);
      throw e;
    }
    storedBytes.addAndGet(length);
    if (sync) {
      force(path.getParent());
    } else {
      unsynced.add(path);
      unsyncedDirectories.add(path.getParent());
      if (unsynced.size() > MAX_UNSYNCED) {
        syncPending();
      }
    }
    return ref;
  }

  /** Bytes remaining in the parts of a value, together. */
  static int lengthOf(ByteBuffer[] parts) {
    int length = 0;
    for (ByteBuffer p : parts) {
      length += p.remaining();
    }
    return length;
  }

  /** Writes the parts through the page cache; returns the file's length. */
  private long writeBuffered(Path path, ByteBuffer[] parts, boolean sync) throws IOException {
    try (FileChannel ch = openNew(path)) {
      long length = lengthOf(parts);
      long remaining = length;
      while (remaining > 0) {
        remaining -= ch.write(parts);
      }
      cutTo(ch, length);
      if (sync) {
        ch.force(false);
      }
      return length;
    }
  }

  /**
   * Writes the parts, padded with zeros to a whole block, with direct I/O; returns the file's
   * length. A file system that refuses direct I/O gets this and every later file through the page
   * cache (the parts are left as they were for that).
   */
  private long writeDirect(Path path, ByteBuffer[] parts, boolean sync) throws IOException {
    long length = lengthOf(parts);
    int padded = wholeBlocks(length);
    ByteBuf block =
        padded <= MAX_KEPT_WRITE_BUFFER
            ? null
            : PooledByteBufAllocator.DEFAULT.directBuffer(padded + BLOCK);
    try {
      ByteBuffer aligned =
          block == null ? keptWriteBuffer(padded) : block.nioBuffer(blockStart(block), padded);
      for (ByteBuffer p : parts) {
        aligned.put(p.duplicate());
      }
      aligned.put(ZEROS, 0, padded - (int) length).flip();
      FileChannel ch;
      try {
        ch = openNew(path, directOption);
      } catch (IOException | UnsupportedOperationException refused) {
        Files.deleteIfExists(path);
        long written = writeBuffered(path, parts, sync);
        if (direct) {
          direct = false; // the page cache took it: the file system refuses direct I/O
          LOG.info(
              "Value files in {} are written through the page cache: direct I/O refused ({})",
              root,
              refused.getMessage());
        }
        return written;
      }
      try (ch) {
        while (aligned.hasRemaining()) {
          ch.write(aligned);
        }
        cutTo(ch, padded);
        if (sync) {
          ch.force(false);
        }
      }
      return padded;
    } finally {
      if (block != null) {
        block.release();
      }
    }
  }

  /**
   * This thread's block-aligned buffer for direct writes, {@code bytes} long. Taken from Netty's
   * pool per unit instead, the pool dropped chunks as they emptied and allocated new ones, which
   * the JVM zeroes: 4-5 % of a data server's CPU under streaming writes (perf: {@code
   * Copy::fill_to_memory_atomic} on the worker threads).
   */
  private static ByteBuffer keptWriteBuffer(int bytes) {
    ByteBuffer b = WRITE_BUFFER.get();
    if (b == null || b.capacity() < bytes) {
      b = ByteBuffer.allocateDirect(bytes + BLOCK).alignedSlice(BLOCK);
      WRITE_BUFFER.set(b);
    }
    return b.clear().limit(bytes);
  }

  /**
   * Opens a new value file for writing: a spare renamed to {@code path} when there is one (its old
   * bytes are written over, then cut with {@link #cutTo}), else a file created.
   */
  private FileChannel openNew(Path path, OpenOption... extra) throws IOException {
    boolean reused = spares.reuseAs(path);
    Set<OpenOption> options = new HashSet<>(List.of(extra));
    options.add(StandardOpenOption.WRITE);
    if (!reused) {
      options.add(StandardOpenOption.CREATE_NEW);
    }
    return FileChannel.open(path, options);
  }

  /** Cuts a reused file's old bytes past {@code length}. */
  private static void cutTo(FileChannel ch, long length) throws IOException {
    if (ch.size() > length) {
      ch.truncate(length);
    }
  }

  /**
   * The file as a buffer of up to {@code length} bytes; the caller releases it. A file shorter than
   * the index says (torn by a power loss) gives fewer bytes, and its checksum tells.
   *
   * <p>A file in the page cache, or any file unless {@code pastCache}, is mapped ({@link
   * MappedValue}) and replied from the cache. One that is not cached, read whole with {@code
   * pastCache} (a streaming reader, a rebuild, the scrubber), is read with direct I/O into a buffer
   * and stays out of the cache: filling cache pages and mapping them cost the server more than the
   * device's transfer into the buffer.
   *
   * @throws NoSuchFileException when the file is gone (replaced meanwhile, or lost)
   */
  ByteBuf read(Ref ref, int length, ByteBufAllocator alloc, boolean pastCache) throws IOException {
    Path path = path(ref);
    readers.merge(
        path, 1, Integer::sum); // before the open: a file retired after this is not reused
    boolean heldByBuffer = false;
    try {
      ByteBuf value = readHeld(path, length, alloc, pastCache);
      heldByBuffer = value instanceof MappedValue;
      return value;
    } finally {
      if (!heldByBuffer) {
        doneReading(path);
      }
    }
  }

  private void doneReading(Path path) {
    readers.computeIfPresent(path, (p, n) -> n == 1 ? null : n - 1);
  }

  /**
   * {@link #read}, for a reader counted in {@link #readers}; a mapping it returns uncounts it when
   * released.
   */
  private ByteBuf readHeld(Path path, int length, ByteBufAllocator alloc, boolean pastCache)
      throws IOException {
    // read and write: a private mapping needs both, though nothing is ever written to the file
    try (FileChannel ch =
        FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      int n = (int) Math.min(length, ch.size());
      if (n == 0) {
        return alloc.directBuffer(0);
      }
      MappedByteBuffer mapping = ch.map(FileChannel.MapMode.PRIVATE, 0, n);
      if (pastCache
          && directReads
          && !mapping.isLoaded()) { // isLoaded asks the kernel (mincore), touching nothing
        ByteBuf read;
        try {
          read = readDirect(path, n, alloc);
        } catch (IOException gone) {
          PlatformDependent.freeDirectBuffer(mapping);
          throw gone;
        }
        if (read != null) {
          PlatformDependent.freeDirectBuffer(mapping);
          return read;
        }
      }
      // every byte is about to be read (the checksum covers the whole unit): ask for all of it at
      // once (madvise WILLNEED), instead of one read-around per page fault when it is not cached
      mapping.load();
      return new MappedValue(alloc, mapping, () -> doneReading(path));
    }
  }

  /**
   * The first {@code n} bytes of the file, read with direct I/O into a block-aligned buffer; null
   * where the file system refuses direct I/O (then this and every later read maps its file).
   *
   * @throws NoSuchFileException when the file is gone (replaced meanwhile)
   */
  private ByteBuf readDirect(Path path, int n, ByteBufAllocator alloc) throws IOException {
    int padded = wholeBlocks(n);
    ByteBuf block = alloc.directBuffer(padded + BLOCK);
    try {
      int start = blockStart(block);
      ByteBuffer aligned = block.nioBuffer(start, padded);
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, directOption)) {
        while (aligned.position() < n) {
          int want = aligned.remaining();
          int got = ch.read(aligned, aligned.position());
          if (got < want) {
            break; // the end of the file: a short read ends the blocks it has
          }
        }
      }
      return block.retainedSlice(start, Math.min(aligned.position(), n));
    } catch (NoSuchFileException gone) {
      throw gone;
    } catch (IOException | UnsupportedOperationException refused) {
      if (directReads) {
        directReads = false;
        LOG.info(
            "Value files in {} are read through the page cache: direct I/O refused ({})",
            root,
            refused.getMessage());
      }
      return null;
    } finally {
      block.release();
    }
  }

  /** Bytes of the whole blocks that hold {@code length} bytes (a direct transfer's length). */
  private static int wholeBlocks(long length) {
    return (int) ((length + BLOCK - 1) / BLOCK * BLOCK);
  }

  /** The first index of a direct buffer (of at least a block) whose address is block-aligned. */
  private static int blockStart(ByteBuf buffer) {
    return (BLOCK - buffer.nioBuffer(0, BLOCK).alignmentOffset(0, BLOCK)) % BLOCK;
  }

  /**
   * Removes a file no version names any more (keeping it as a spare for a new value when no read
   * holds it); one already gone is fine.
   */
  void delete(Ref ref) {
    Path path = path(ref);
    try {
      long size = Files.size(path);
      unsynced.remove(path);
      spares.retire(path, size, () -> !readers.containsKey(path));
      storedBytes.addAndGet(-size);
    } catch (IOException gone) {
      // removed already (a crash between a commit and this delete is swept at the next start)
    }
  }

  /**
   * Forces every file written since the last call, and their directory entries, to stable storage.
   */
  void syncPending() throws IOException {
    List<Path> files = new ArrayList<>(unsynced);
    for (Path f : files) {
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        ch.force(false);
      } catch (NoSuchFileException gone) {
        // replaced or removed since
      }
      unsynced.remove(f);
    }
    List<Path> dirs = new ArrayList<>(unsyncedDirectories);
    for (Path d : dirs) {
      unsyncedDirectories.remove(d);
      force(d);
    }
  }

  /**
   * At start: removes every file {@code named} does not accept (written by a write that never
   * committed, or replaced by one whose delete a crash cut short) and counts the bytes of the rest.
   *
   * @return how many files were removed
   */
  int sweep(Predicate<Ref> named) throws IOException {
    int removed = 0;
    long bytes = 0;
    long maxGeneration = 0;
    for (int b = 0; b < BUCKETS; b++) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(bucket(b))) {
        for (Path f : files) {
          Ref ref = parse(f.getFileName().toString());
          if (ref != null) {
            maxGeneration = Math.max(maxGeneration, ref.generation());
          }
          if (ref != null && named.test(ref)) {
            bytes += Files.size(f);
          } else {
            Files.deleteIfExists(f);
            removed++;
          }
        }
      }
    }
    nextGeneration.set(maxGeneration + 1);
    storedBytes.set(bytes);
    return removed;
  }

  long storedBytes() {
    return storedBytes.get();
  }

  /** For tests: the file holding a version. */
  Path pathForTesting(Ref ref) {
    return path(ref);
  }

  private Path path(Ref ref) {
    ShardId s = ref.shard();
    return bucket(Math.floorMod(Long.hashCode(s.fileId()), BUCKETS))
        .resolve(
            s.fileId()
                + "."
                + s.stripe()
                + "."
                + s.unit()
                + "."
                + ref.epoch()
                + "."
                + ref.generation());
  }

  private Path bucket(int b) {
    return root.resolve(String.format("%02x", b));
  }

  private static Ref parse(String name) {
    String[] f = name.split("\\.");
    if (f.length != 5) {
      return null;
    }
    try {
      return new Ref(
          new ShardId(Long.parseLong(f[0]), Long.parseLong(f[1]), Integer.parseInt(f[2])),
          Long.parseLong(f[3]),
          Long.parseLong(f[4]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static void force(Path directory) throws IOException {
    try (FileChannel ch = FileChannel.open(directory, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
