package io.tessera.data.store;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.RocksDBException;

/**
 * In-process mutual exclusion of updates to one shard (a read-modify-write of its versions),
 * striped over a fixed set of locks; a multi-shard write takes its stripes in order.
 */
final class ShardMutexes {
  private static final int STRIPES = 512;

  /** Work on one shard's versions. */
  interface ShardWork {
    void run() throws IOException, RocksDBException;
  }

  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  ShardMutexes() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** Runs {@code work} holding {@code id}'s lock. */
  void with(ShardId id, ShardWork work) throws IOException {
    ReentrantLock lock = locks[stripe(id)];
    lock.lock();
    try {
      work.run();
    } catch (RocksDBException e) {
      throw ShardDb.error("update", e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Locks every shard of a write, in stripe order (no deadlock between two writes); returns what to
   * pass to {@link #unlock}.
   */
  int[] lockAll(List<ShardWrite> writes) {
    int[] stripes = writes.stream().mapToInt(w -> stripe(w.shard())).distinct().sorted().toArray();
    for (int s : stripes) {
      locks[s].lock();
    }
    return stripes;
  }

  void unlock(int[] stripes) {
    for (int i = stripes.length - 1; i >= 0; i--) {
      locks[stripes[i]].unlock();
    }
  }

  private static int stripe(ShardId id) {
    return Math.floorMod(id.hashCode(), STRIPES);
  }
}
