package io.tessera.meta.state;

import io.tessera.common.proto.ConsoleTokenProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.QosAppProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.meta.proto.AbortedAttemptsProto;
import io.tessera.meta.proto.PendingSnapshotProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatchWithIndex;

/**
 * The namespace changes of one Raft log entry. Reads see the entry's own earlier writes, so the
 * changes batched into one entry apply exactly as if they had come one by one.
 */
public final class NamespaceTxn implements NamespaceView, AutoCloseable {
  private final NamespaceStore store;
  private final WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
  private final ReadOptions readOptions = new ReadOptions();
  private final List<Long> droppedSnapshots = new ArrayList<>();

  /** The log position of these changes (0: none). */
  private final long index;

  NamespaceTxn(NamespaceStore store, long index) {
    this.index = index;
    this.store = store;
  }

  WriteBatchWithIndex batch() {
    return batch;
  }

  @Override
  public InodeProto inode(long id) {
    return NamespaceStore.parseInode(get(store.inodes, Keys.id(id)));
  }

  @Override
  public long child(long parentId, String name) {
    byte[] v = get(store.dentries, Keys.dentry(parentId, name));
    return v == null ? 0 : Keys.id(v);
  }

  @Override
  public List<Entry> children(long parentId, String startAfter, int limit) {
    return store.guarded(
        () -> {
          try (RocksIterator base = store.db().newIterator(store.dentries);
              RocksIterator it = batch.newIteratorWithBase(store.dentries, base)) {
            return scanChildren(it, parentId, startAfter, limit);
          }
        });
  }

  static List<Entry> scanChildren(RocksIterator it, long parentId, String startAfter, int limit) {
    List<Entry> out = new ArrayList<>();
    byte[] prefix = Keys.id(parentId);
    if (startAfter == null || startAfter.isEmpty()) {
      it.seek(prefix);
    } else {
      byte[] from = Keys.dentry(parentId, startAfter);
      it.seek(from);
      if (it.isValid() && Arrays.equals(it.key(), from)) {
        it.next();
      }
    }
    for (; it.isValid() && out.size() < limit; it.next()) {
      byte[] k = it.key();
      if (!Keys.hasPrefix(k, prefix)) {
        break;
      }
      out.add(new Entry(Keys.dentryName(k), Keys.id(it.value())));
    }
    return out;
  }

  /**
   * Stores an inode; every server in its stale list and in its layout is indexed (recovery finds
   * the files stale on a server, or placed on a server it drains, from there), and so is a file
   * without parity (recovery status counts those as not redundant by layout).
   */
  public void putInode(InodeProto inode) {
    InodeProto.Builder stamped = inode.toBuilder();
    if (index == 0) {
      stamped.clearChangedIndex();
    } else {
      stamped.setChangedIndex(index);
    }
    put(store.inodes, Keys.id(inode.getId()), stamped.build().toByteArray());
    for (String server : inode.getStaleServersList()) {
      put(store.stale, Keys.serverFile(server, inode.getId()), new byte[0]);
    }
    for (String server : inode.getLayout().getServersList()) {
      put(store.placed, Keys.serverFile(server, inode.getId()), new byte[0]);
    }
    if (Inodes.withoutParity(inode)) {
      put(store.withoutParity, Keys.id(inode.getId()), new byte[0]);
    }
  }

  public void deleteInode(long id) {
    InodeProto old = inode(id);
    if (old != null) {
      for (String server : old.getStaleServersList()) {
        delete(store.stale, Keys.serverFile(server, id));
      }
      for (String server : old.getLayout().getServersList()) {
        delete(store.placed, Keys.serverFile(server, id));
      }
      if (Inodes.withoutParity(old)) {
        delete(store.withoutParity, Keys.id(id));
      }
      if (old.getPartialUntilMs() != 0) {
        unindexPartial(id);
      }
    }
    delete(store.inodes, Keys.id(id));
  }

  /**
   * Recovery copied {@code from}'s units of the file onto {@code to}: the layout names {@code to}
   * in its place at {@code generation}, and {@code from} keeps a leftover entry until its copy is
   * deleted. Returns false (nothing changed) unless the layout is at {@code generation - 1} and
   * names {@code from} and not {@code to}.
   */
  public boolean moveUnits(long fileId, String from, String to, long generation) {
    InodeProto in = inode(fileId);
    if (in == null
        || in.getLayout().getGeneration() != generation - 1
        || !in.getLayout().getServersList().contains(from)
        || in.getLayout().getServersList().contains(to)) {
      return false;
    }
    List<String> servers = new ArrayList<>(in.getLayout().getServersList());
    servers.set(servers.indexOf(from), to);
    List<String> stale = new ArrayList<>(in.getStaleServersList());
    stale.remove(from);
    delete(store.placed, Keys.serverFile(from, fileId));
    delete(store.stale, Keys.serverFile(from, fileId));
    put(store.leftover, Keys.serverFile(from, fileId), new byte[0]);
    putInode(
        in.toBuilder()
            .setLayout(
                in.getLayout().toBuilder()
                    .clearServers()
                    .addAllServers(servers)
                    .setGeneration(generation))
            .clearStaleServers()
            .addAllStaleServers(stale)
            .build());
    return true;
  }

  /** The file's shards left on {@code server} by a move were deleted. */
  public void leftoverDropped(long fileId, String server) {
    delete(store.leftover, Keys.serverFile(server, fileId));
  }

  /** Recovery rebuilt {@code server}'s shards of the file: it is no longer stale there. */
  public boolean clearStale(long fileId, String server) {
    InodeProto in = inode(fileId);
    delete(store.stale, Keys.serverFile(server, fileId));
    if (in == null || !in.getStaleServersList().contains(server)) {
      return false;
    }
    List<String> rest = new ArrayList<>(in.getStaleServersList());
    rest.remove(server);
    put(
        store.inodes,
        Keys.id(fileId),
        in.toBuilder().clearStaleServers().addAllStaleServers(rest).build().toByteArray());
    return true;
  }

  /** Whether any file is stale on the server. */
  public boolean hasStaleFiles(String server) {
    return hasFileOn(store.stale, server);
  }

  /** Whether any file has a unit on the server. */
  public boolean hasPlacedFiles(String server) {
    return hasFileOn(store.placed, server);
  }

  /** Whether the server still holds shards of files moved off it. */
  public boolean hasLeftoverFiles(String server) {
    return hasFileOn(store.leftover, server);
  }

  private boolean hasFileOn(org.rocksdb.ColumnFamilyHandle index, String server) {
    byte[] prefix = Keys.serverPrefix(server);
    return store.guarded(
        () -> {
          try (RocksIterator base = store.db().newIterator(index);
              RocksIterator it = batch.newIteratorWithBase(index, base)) {
            it.seek(prefix);
            return it.isValid() && Keys.hasPrefix(it.key(), prefix);
          }
        });
  }

  public ServerStateRecordProto serverState(String server) {
    return NamespaceStore.parse(
        get(store.serverStates, Keys.utf8(server)), ServerStateRecordProto::parseFrom);
  }

  public void setServerState(String server, ServerStateRecordProto state) {
    put(store.serverStates, Keys.utf8(server), state.toByteArray());
  }

  public void link(long parentId, String name, long childId) {
    put(store.dentries, Keys.dentry(parentId, name), Keys.id(childId));
  }

  public void unlink(long parentId, String name) {
    delete(store.dentries, Keys.dentry(parentId, name));
  }

  /** Indexes a put's partial copy with where it is linked (its expiry removes it from there). */
  void indexPartial(long fileId, long parentId, String name) {
    put(store.partial, Keys.id(fileId), Keys.dentry(parentId, name));
  }

  /** Where a partial copy is linked ({parent id, name}), or null when it is not indexed as one. */
  byte[] partialLink(long fileId) {
    return get(store.partial, Keys.id(fileId));
  }

  void unindexPartial(long fileId) {
    delete(store.partial, Keys.id(fileId));
  }

  /** A fresh inode id; ids are never reused. */
  public long allocateInodeId() {
    byte[] v = get(store.system, NamespaceStore.NEXT_INODE);
    long next = v == null ? NamespaceView.ROOT_ID + 1 : Keys.id(v);
    put(store.system, NamespaceStore.NEXT_INODE, Keys.id(next + 1));
    return next;
  }

  /**
   * Remembers that a removed file's shards must be deleted from its data servers; files that held
   * bytes are reclaimed before empty ones ({@link Keys#reclaim}).
   */
  public void reclaim(long fileId, LayoutProto layout, boolean heldBytes) {
    put(store.reclaim, Keys.reclaim(fileId, heldBytes), layout.toByteArray());
  }

  public void reclaimDone(long fileId) {
    delete(store.reclaim, Keys.reclaim(fileId, true));
    delete(store.reclaim, Keys.reclaim(fileId, false));
  }

  /** Forgets a data server: its registration, its state record and its leftover entries. */
  public void forgetServer(String server) {
    delete(store.servers, Keys.utf8(server));
    delete(store.serverStates, Keys.utf8(server));
    for (long fileId : store.leftoverFiles(server, Integer.MAX_VALUE)) {
      delete(store.leftover, Keys.serverFile(server, fileId));
    }
  }

  public void registerServer(HeartbeatRequestProto registration) {
    put(store.servers, Keys.utf8(registration.getServerId()), registration.toByteArray());
  }

  public long epoch() {
    byte[] v = get(store.system, NamespaceStore.EPOCH);
    return v == null ? 0 : Keys.id(v);
  }

  public void setEpoch(long epoch) {
    put(store.system, NamespaceStore.EPOCH, Keys.id(epoch));
  }

  public PendingSnapshotProto pendingSnapshot() {
    return NamespaceStore.parse(
        get(store.system, NamespaceStore.PENDING_SNAPSHOT), PendingSnapshotProto::parseFrom);
  }

  public void setPendingSnapshot(PendingSnapshotProto pending) {
    if (pending == null) {
      delete(store.system, NamespaceStore.PENDING_SNAPSHOT);
    } else {
      put(store.system, NamespaceStore.PENDING_SNAPSHOT, pending.toByteArray());
    }
  }

  /** Marks the snapshot at {@code epoch} as committed without its namespace checkpoint yet. */
  public void setCapturePending(long epoch) {
    put(store.system, NamespaceStore.CAPTURE_PENDING, Keys.id(epoch));
  }

  /** Attempts aborted before their BEGIN was logged, newest last. */
  public List<Long> abortedAttempts() {
    AbortedAttemptsProto a =
        NamespaceStore.parse(
            get(store.system, NamespaceStore.ABORTED_ATTEMPTS), AbortedAttemptsProto::parseFrom);
    return a == null ? List.of() : a.getAttemptsList();
  }

  public void setAbortedAttempts(List<Long> attempts) {
    put(
        store.system,
        NamespaceStore.ABORTED_ATTEMPTS,
        AbortedAttemptsProto.newBuilder().addAllAttempts(attempts).build().toByteArray());
  }

  public SnapshotProto snapshot(String name) {
    return NamespaceStore.parse(get(store.snapshots, Keys.utf8(name)), SnapshotProto::parseFrom);
  }

  public void putSnapshot(SnapshotProto snapshot) {
    put(store.snapshots, Keys.utf8(snapshot.getName()), snapshot.toByteArray());
  }

  /** Removes a snapshot from the catalog; its namespace checkpoint is deleted after the commit. */
  public void dropSnapshot(SnapshotProto snapshot) {
    delete(store.snapshots, Keys.utf8(snapshot.getName()));
    droppedSnapshots.add(snapshot.getEpoch());
  }

  /** Epochs of snapshots this entry dropped. */
  public List<Long> droppedSnapshots() {
    return droppedSnapshots;
  }

  /** Epochs of every snapshot as this entry sees them. */
  public long[] retainedEpochs() {
    return store.guarded(
        () -> {
          List<Long> out = new ArrayList<>();
          try (RocksIterator base = store.db().newIterator(store.snapshots);
              RocksIterator it = batch.newIteratorWithBase(store.snapshots, base)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              out.add(NamespaceStore.parse(it.value(), SnapshotProto::parseFrom).getEpoch());
            }
          }
          return out.stream().mapToLong(Long::longValue).sorted().toArray();
        });
  }

  /** Runs one change so that, if it is refused part-way, none of its writes remain. */
  public <T> T atomically(Supplier<T> change) {
    try {
      batch.setSavePoint();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    try {
      T out = change.get();
      batch.popSavePoint();
      return out;
    } catch (RuntimeException e) {
      try {
        batch.rollbackToSavePoint();
      } catch (RocksDBException r) {
        throw new IllegalStateException("cannot roll back a refused change: " + r.getMessage(), r);
      }
      throw e;
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Commits every change of this entry together with the entry's log position. */
  public void commit(long term, long index) {
    put(store.system, NamespaceStore.APPLIED_INDEX, Keys.id(index));
    put(store.system, NamespaceStore.APPLIED_TERM, Keys.id(term));
    store.write(this);
  }

  /** Sets an application's QoS settings, or with {@code reset} forgets them. */
  public void setQos(QosAppProto app, boolean reset) {
    byte[] key = Keys.utf8(NamespaceStore.QOS_PREFIX + app.getApp());
    if (reset) {
      delete(store.system, key);
    } else {
      put(store.system, key, app.toByteArray());
    }
  }

  /** Adds a console token, or with {@code revoke} removes it; false: nothing to revoke. */
  public boolean setConsoleToken(ConsoleTokenProto token, boolean revoke) {
    byte[] key = Keys.utf8(NamespaceStore.CONSOLE_TOKEN_PREFIX + token.getId());
    if (!revoke) {
      put(store.system, key, token.toByteArray());
      return true;
    }
    if (get(store.system, key) == null) {
      return false;
    }
    delete(store.system, key);
    return true;
  }

  /** A record of {@code system} as this transaction sees it (null: none). */
  byte[] systemValue(byte[] key) {
    return get(store.system, key);
  }

  void putSystem(byte[] key, byte[] value) {
    put(store.system, key, value);
  }

  void deleteSystem(byte[] key) {
    delete(store.system, key);
  }

  private byte[] get(org.rocksdb.ColumnFamilyHandle cf, byte[] key) {
    return store.guarded(
        () -> {
          try {
            return batch.getFromBatchAndDB(store.db(), cf, readOptions, key);
          } catch (RocksDBException e) {
            throw new IllegalStateException("namespace read failed: " + e.getMessage(), e);
          }
        });
  }

  private void put(org.rocksdb.ColumnFamilyHandle cf, byte[] key, byte[] value) {
    try {
      batch.put(cf, key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException("namespace write failed: " + e.getMessage(), e);
    }
  }

  private void delete(org.rocksdb.ColumnFamilyHandle cf, byte[] key) {
    try {
      batch.delete(cf, key);
    } catch (RocksDBException e) {
      throw new IllegalStateException("namespace write failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    readOptions.close();
    batch.close();
  }
}
