package io.tessera.data.store;

import io.netty.buffer.ByteBuf;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * A data server's storage of shards. Every write is stamped with the store's current epoch, or with
 * the epoch its writer's locks were granted at; reads see the newest version. Implementations are
 * thread-safe.
 */
public interface ShardStore extends Closeable {
  /** {@link #write(List, WriteBookkeeping, long, boolean)}'s epoch: the store's current one. */
  long CURRENT_EPOCH = -1;

  /** Applies all writes atomically; with {@code sync} they are on stable storage on return. */
  default void write(List<ShardWrite> writes, boolean sync) throws IOException {
    write(writes, WriteBookkeeping.NONE, sync);
  }

  /**
   * Applies all writes together with their bookkeeping (a lock released, dirty-file entries) in one
   * atomic step.
   */
  default void write(List<ShardWrite> writes, WriteBookkeeping bookkeeping, boolean sync)
      throws IOException {
    write(writes, bookkeeping, CURRENT_EPOCH, sync);
  }

  /**
   * Like {@link #write(List, WriteBookkeeping, boolean)}, stamped with {@code epoch} (or {@link
   * #CURRENT_EPOCH}). A writer's epoch may be below the store's (its locks were granted before a
   * snapshot it belongs to was committed) or one above (a snapshot was committed and this server
   * has not heard yet); no version of the shards above it may exist.
   */
  void write(List<ShardWrite> writes, WriteBookkeeping bookkeeping, long epoch, boolean sync)
      throws IOException;

  /** Persists a granted stripe lock, so that a restart still knows the stripes it guarded. */
  void putLock(byte[] key, byte[] record) throws IOException;

  /** Forgets a lock released without a write. */
  void removeLock(byte[] key) throws IOException;

  /** Every persisted lock as {@code {key, record}}. */
  List<byte[][]> locks() throws IOException;

  /**
   * The dirty-file log: files written while one of their servers was skipped, by server then file.
   */
  List<DirtyFile> dirtyFiles() throws IOException;

  /** Dirty-file entries for {@code server}; only {@code fileId}'s when it is >= 0. */
  List<DirtyFile> dirtyFiles(String server, long fileId) throws IOException;

  /** Servers this store holds a dirty-file entry for, for the file. */
  List<String> dirtyServers(long fileId);

  /**
   * Drops the entries of {@code server} whose sequence is still the one given; returns how many.
   */
  int clearDirty(String server, List<DirtyFile> entries) throws IOException;

  /**
   * The stored bytes of {@code [offset, offset+length)} of the shard's newest version: up to {@code
   * length} bytes (fewer where the stored unit ends sooner; what lies beyond was never written and
   * reads as zeros). The caller releases the buffer.
   *
   * @return null when the shard does not exist at all
   * @throws CorruptShardException when the stored bytes fail their checksum
   */
  default ByteBuf read(ShardId shard, int offset, int length) throws IOException {
    return read(shard, offset, length, Long.MAX_VALUE);
  }

  /**
   * Like {@link #read(ShardId, int, int)} but of the newest version stamped at or below {@code
   * atEpoch}.
   */
  ByteBuf read(ShardId shard, int offset, int length, long atEpoch) throws IOException;

  /** {@link #versionAt}'s answer for a shard without any version. */
  long NO_VERSION = -1;

  /**
   * The epoch of the shard's newest version stamped at or below {@code atEpoch} (a tombstone
   * counts), or {@link #NO_VERSION}.
   */
  long versionAt(ShardId shard, long atEpoch) throws IOException;

  /**
   * Removes every shard of a file removed from the namespace (where snapshots may see it: ends its
   * live ones), and refuses requests for it from then on, across restarts ({@link #layoutFloor}).
   */
  void deleteFiles(List<Long> fileIds) throws IOException;

  /** {@link #deleteFiles} of one file. */
  default void deleteFile(long fileId) throws IOException {
    deleteFiles(List.of(fileId));
  }

  /**
   * Removes this server's shards of a file that lives on elsewhere (recovery moved them to other
   * servers; the file's layout fence refuses requests planned with the old layout).
   */
  void dropCopy(long fileId) throws IOException;

  /**
   * The oldest layout generation of the file requests may be planned with (0: any; {@link
   * #FILE_DELETED}: none, {@link #deleteFile} removed it here).
   */
  long layoutFloor(long fileId) throws IOException;

  /** {@link #layoutFloor} of a deleted file. */
  long FILE_DELETED = Long.MAX_VALUE;

  /**
   * Refuses, from now on and across restarts, requests for the file planned with a layout older
   * than this.
   */
  void fenceLayout(long fileId, long generation) throws IOException;

  /**
   * Keeps stripes below {@code stripe}; of stripe {@code stripe} keeps {@code keepLengths[unit]}
   * bytes of each unit; removes later stripes.
   */
  default void truncateFile(long fileId, long stripe, int[] keepLengths) throws IOException {
    truncateFile(fileId, stripe, keepLengths, WriteBookkeeping.NONE);
  }

  /**
   * Like {@link #truncateFile(long, long, int[])}, releasing {@code bookkeeping}'s lock and logging
   * the servers the truncate skipped in the dirty-file log in the same atomic step.
   *
   * @throws UnrecordedSkipException as {@link #write(List, WriteBookkeeping, long, boolean)} does
   */
  void truncateFile(long fileId, long stripe, int[] keepLengths, WriteBookkeeping bookkeeping)
      throws IOException;

  /** Makes every acknowledged write durable against power loss. */
  void sync() throws IOException;

  /**
   * Writes stored without their own fsync since the last {@link #sync()} began: they survive this
   * process's crash, not the machine's power loss.
   */
  long unsyncedWrites();

  /** The epoch new writes are stamped with and the retained snapshots' epochs. */
  EpochState epochState();

  default long epoch() {
    return epochState().epoch();
  }

  void setEpochState(EpochState state);

  /** Drops versions no retained snapshot sees any more; returns how many. */
  long collectGarbage() throws IOException;

  /**
   * Per retained snapshot the bytes only it holds, and the files written in {@code (after, upTo]}.
   */
  VersionReport scanVersions(long writtenAfter, long writtenUpTo, boolean usage) throws IOException;

  /**
   * Verifies the checksums of stored versions in key order, from {@code from} (null: the first)
   * until about {@code budgetBytes} were read; adds each shard whose newest version fails to {@code
   * corrupt}, and each older version (kept only for snapshots) that fails to {@code
   * corruptSnapshotOnly} as "shard at epoch E".
   *
   * @return where to go on from, or null when the pass reached the end
   */
  byte[] scrub(
      byte[] from, long budgetBytes, List<ShardId> corrupt, List<String> corruptSnapshotOnly)
      throws IOException;

  /** Bytes of stored data, approximately. */
  long usedBytes();
}
