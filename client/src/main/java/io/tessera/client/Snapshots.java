package io.tessera.client;

import io.tessera.client.snapshot.SnapshotDiffer;
import io.tessera.client.snapshot.SnapshotRestorer;
import java.io.IOException;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Snapshots of the whole file system ({@code fs.snapshots()}): taken while the file system is
 * busy, readable at {@code /.snapshots/<name>/...} (read-only), compared, restored, deleted.
 */
public final class Snapshots {
  private final AsyncTesseraFileSystem async;
  private final TesseraFileSystem fs;

  Snapshots(AsyncTesseraFileSystem async, TesseraFileSystem fs) {
    this.async = async;
    this.fs = fs;
  }

  /** Takes a snapshot; waits through busy data servers (retrying) until it is committed. */
  public SnapshotInfo create(String name) throws IOException {
    return Futures.get(async.createSnapshot(name));
  }

  /** Every snapshot, oldest first, without the bytes each holds (cheap). */
  public List<SnapshotInfo> list() throws IOException {
    return Futures.get(async.listSnapshots());
  }

  /** Every snapshot with the bytes only it holds (asks every data server to scan its versions). */
  public List<SnapshotInfo> listWithUsage() throws IOException {
    return Futures.get(async.listSnapshotsWithUsage());
  }

  /** Deletes a snapshot; the shard versions only it held are freed in the background. */
  public void delete(String name) throws IOException {
    Futures.get(async.deleteSnapshot(name));
  }

  /** What changed from snapshot {@code from} to snapshot {@code to}: created, deleted, modified, renamed. */
  public List<SnapshotChange> diff(String from, String to) throws IOException {
    return new SnapshotDiffer(async).diff(from, to);
  }

  /**
   * Makes {@code path} (a file or a whole tree) what it was in the snapshot, as a new version:
   * files that differ are copied back, entries the snapshot did not have are removed. Files
   * unchanged since the snapshot are left alone.
   *
   * @param progress called with the bytes copied so far (may be null)
   */
  public SnapshotRestorer.Result restore(String name, String path, LongConsumer progress) throws IOException {
    return new SnapshotRestorer(fs, async).restore(name, path, progress);
  }

  /** Rolls the whole file system back to the snapshot (every path but /.snapshots). */
  public SnapshotRestorer.Result restoreAll(String name, LongConsumer progress) throws IOException {
    return new SnapshotRestorer(fs, async).restore(name, "/", progress);
  }
}
