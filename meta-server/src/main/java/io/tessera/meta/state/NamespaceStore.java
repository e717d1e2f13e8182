package io.tessera.meta.state;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.platform.UnpackedLibraries;
import io.tessera.common.proto.AuditEntryProto;
import io.tessera.common.proto.ConsoleTokenProto;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.QosAppProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.PendingSnapshotProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * The namespace of one meta replica in RocksDB. Column families: {@code inodes} (id to {@link
 * InodeProto}), {@code dentries} (parent id + name to child id), {@code system} (applied log index,
 * inode counter, epoch, the snapshot attempt under way), {@code servers} (data-server
 * registrations), {@code reclaim} (removed files whose shards are still on data servers) and {@code
 * snapshots} (the snapshot catalog: name to {@link SnapshotProto}).
 *
 * <p>Changes go through a {@link NamespaceTxn}: one per Raft log entry, committed atomically
 * together with that entry's index, so a replica that crashes mid-apply re-applies the whole entry
 * or none of it.
 *
 * <p>Over 500 lines because it is the one owner of the RocksDB handles: every column family's reads
 * and scans sit next to the options and families they use; changes are in {@link NamespaceTxn} and
 * the namespace logic in the op classes.
 */
public final class NamespaceStore implements Closeable, NamespaceView {
  static {
    RocksDB.loadLibrary();
    UnpackedLibraries.removeRocksDbCopy();
  }

  static final byte[] APPLIED_INDEX = Keys.utf8("applied-index");
  static final byte[] APPLIED_TERM = Keys.utf8("applied-term");
  static final byte[] NEXT_INODE = Keys.utf8("next-inode");
  static final byte[] EPOCH = Keys.utf8("epoch");
  static final byte[] PENDING_SNAPSHOT = Keys.utf8("pending-snapshot");
  static final byte[] ABORTED_ATTEMPTS = Keys.utf8("aborted-attempts");
  static final byte[] CAPTURE_PENDING = Keys.utf8("capture-pending");

  /** Prefix of the QoS settings in {@code system}: one key per application. */
  static final String QOS_PREFIX = "qos/";

  /** Prefix of the console tokens in {@code system}: one key per token id. */
  static final String CONSOLE_TOKEN_PREFIX = "console-token/";

  /** Prefix of the audit log in {@code system}: one key per entry, by sequence number. */
  static final byte[] AUDIT_PREFIX = Keys.utf8("audit/");

  private static final List<String> FAMILIES =
      List.of(
          "inodes",
          "dentries",
          "system",
          "servers",
          "reclaim",
          "snapshots",
          "stale",
          "server-states",
          "placed",
          "leftover",
          "without-parity",
          "partial");

  private final Path dir;
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions cfOptions;
  private final RocksDB db;
  private final List<ColumnFamilyHandle> handles;
  final ColumnFamilyHandle inodes;
  final ColumnFamilyHandle dentries;
  final ColumnFamilyHandle system;
  final ColumnFamilyHandle servers;
  final ColumnFamilyHandle reclaim;
  final ColumnFamilyHandle snapshots;

  /** Index of stale shards: server | 0 | fileId, for every server in an inode's stale list. */
  final ColumnFamilyHandle stale;

  /** Per data server its {@link io.tessera.meta.proto.ServerStateRecordProto}. */
  final ColumnFamilyHandle serverStates;

  /** Index of placement: server | 0 | fileId, for every server of a regular file's layout. */
  final ColumnFamilyHandle placed;

  /**
   * Shards left behind: server | 0 | fileId, for every server a file's units were moved off while
   * its copy could not be deleted yet.
   */
  final ColumnFamilyHandle leftover;

  /** Index of regular files whose layout has no parity (m = 0): fileId. Not redundant by layout. */
  final ColumnFamilyHandle withoutParity;

  /** Index of puts' partial copies: fileId to parentId | name, where the copy is linked. */
  final ColumnFamilyHandle partial;

  private final WriteOptions writeOptions = new WriteOptions();

  /**
   * Readers hold it shared; close takes it exclusively, so no thread touches a closed native
   * handle.
   */
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

  private volatile boolean closed;

  public NamespaceStore(Path dir) throws IOException {
    this(dir, false);
  }

  /** Opens a snapshot's namespace checkpoint for reading only. */
  public static NamespaceStore openReadOnly(Path dir) throws IOException {
    return new NamespaceStore(dir, true);
  }

  private NamespaceStore(Path dir, boolean readOnly) throws IOException {
    this.dir = dir;
    if (!readOnly) {
      Files.createDirectories(dir);
    }
    // atomic flush: a checkpoint (one per snapshot, taken on the apply path) flushes every
    // family's memtable in one job with one manifest write, not one job per family
    dbOptions =
        new DBOptions()
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(true)
            .setMaxBackgroundJobs(2)
            .setAtomicFlush(true);
    cfOptions = familyOptions();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
    // a snapshot's checkpoint taken by an older version lacks the families added since
    List<String> existing =
        Files.exists(dir.resolve("CURRENT")) ? existingFamilies(dir) : List.of();
    List<String> present = readOnly ? existing : FAMILIES;
    for (String name : FAMILIES) {
      if (present.contains(name)) {
        descriptors.add(new ColumnFamilyDescriptor(Keys.utf8(name), cfOptions));
      }
    }
    handles = new ArrayList<>();
    try {
      db =
          readOnly
              ? RocksDB.openReadOnly(dbOptions, dir.toString(), descriptors, handles)
              : RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      cfOptions.close();
      dbOptions.close();
      throw new IOException(
          "cannot open namespace store in "
              + dir
              + ": "
              + e.getMessage()
              + " (is another meta server using this directory?)",
          e);
    }
    Map<String, ColumnFamilyHandle> byName = new HashMap<>();
    for (int i = 1; i < descriptors.size(); i++) {
      byName.put(new String(descriptors.get(i).getName(), StandardCharsets.UTF_8), handles.get(i));
    }
    inodes = byName.get("inodes");
    dentries = byName.get("dentries");
    system = byName.get("system");
    servers = byName.get("servers");
    reclaim = byName.get("reclaim");
    snapshots = byName.get("snapshots");
    stale = byName.get("stale");
    serverStates = byName.get("server-states");
    placed = byName.get("placed");
    leftover = byName.get("leftover");
    withoutParity = byName.get("without-parity");
    partial = byName.get("partial");
    if (!readOnly
        && !existing.isEmpty()
        && (!existing.contains("placed") || !existing.contains("without-parity"))) {
      indexPlacement();
    }
    if (!readOnly && inode(ROOT_ID) == null) {
      try {
        db.put(
            inodes,
            writeOptions,
            Keys.id(ROOT_ID),
            InodeProto.newBuilder()
                .setId(ROOT_ID)
                .setType(FileTypeProto.DIRECTORY)
                .setMode(0755)
                .build()
                .toByteArray());
      } catch (RocksDBException e) {
        throw new IOException("cannot initialise the namespace root: " + e.getMessage(), e);
      }
    }
  }

  RocksDB db() {
    return db;
  }

  /**
   * A namespace written before the placement index existed: index every regular file's servers
   * once.
   */
  /** Fills the indexes added since a store was written: placement, and files without parity. */
  private void indexPlacement() throws IOException {
    try (RocksIterator it = db.newIterator(inodes);
        org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        InodeProto in = InodeProto.parseFrom(it.value());
        for (String server : in.getLayout().getServersList()) {
          batch.put(placed, Keys.serverFile(server, in.getId()), new byte[0]);
        }
        if (Inodes.withoutParity(in)) {
          batch.put(withoutParity, Keys.id(in.getId()), new byte[0]);
        }
      }
      db.write(writeOptions, batch);
    } catch (RocksDBException | InvalidProtocolBufferException e) {
      throw new IOException(
          "cannot index the placement of files in " + dir + ": " + e.getMessage(), e);
    }
  }

  private static List<String> existingFamilies(Path dir) throws IOException {
    try (org.rocksdb.Options o = new org.rocksdb.Options()) {
      return RocksDB.listColumnFamilies(o, dir.toString()).stream()
          .map(n -> new String(n, StandardCharsets.UTF_8))
          .toList();
    } catch (RocksDBException e) {
      throw new IOException("cannot list the column families in " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Shared by every namespace store of the process (the live one and the snapshots' views): the
   * index and filter blocks of every table live here, so lookups stay in memory.
   */
  private static final LRUCache BLOCK_CACHE = new LRUCache(64L << 20);

  /**
   * Options of every family. Point lookups dominate: each create asks whether its name exists yet
   * (a miss) and resolves its parent path; a Bloom filter per table (and one per memtable) answers
   * a miss without searching the table, which was a fifth of a replica's apply time (perf, during
   * creates) with RocksDB's small-database defaults.
   */
  private static ColumnFamilyOptions familyOptions() {
    BlockBasedTableConfig tables =
        new BlockBasedTableConfig()
            .setFilterPolicy(new BloomFilter(10))
            .setWholeKeyFiltering(true)
            .setBlockCache(BLOCK_CACHE)
            .setCacheIndexAndFilterBlocks(true)
            .setPinL0FilterAndIndexBlocksInCache(true);
    return new ColumnFamilyOptions()
        .setWriteBufferSize(8L << 20)
        .setMemtablePrefixBloomSizeRatio(0.05)
        .setMemtableWholeKeyFiltering(true)
        .setLevelCompactionDynamicLevelBytes(true)
        .setTableFormatConfig(tables);
  }

  /** Runs a use of the database unless the store is closed (then: UNAVAILABLE, retry elsewhere). */
  <T> T guarded(Supplier<T> use) {
    lock.readLock().lock();
    try {
      if (closed) {
        throw new NamespaceException(
            StatusProto.UNAVAILABLE,
            "this meta replica's namespace is closed (stopping or reloading); retry shortly");
      }
      return use.get();
    } finally {
      lock.readLock().unlock();
    }
  }

  public Path dir() {
    return dir;
  }

  /** Starts the changes of the log entry at {@code index}; the inodes it writes record it. */
  public NamespaceTxn begin(long index) {
    return new NamespaceTxn(this, index);
  }

  /**
   * Starts changes that are not a log entry's (tests): the inodes they write record no position.
   */
  public NamespaceTxn begin() {
    return begin(0);
  }

  void write(NamespaceTxn txn) {
    guarded(
        () -> {
          try {
            db.write(writeOptions, txn.batch());
            return null;
          } catch (RocksDBException e) {
            throw new UncheckedIOException(
                new IOException("namespace write failed: " + e.getMessage(), e));
          }
        });
  }

  public long appliedIndex() {
    return systemLong(APPLIED_INDEX, -1);
  }

  public long appliedTerm() {
    return systemLong(APPLIED_TERM, 0);
  }

  public long epoch() {
    return systemLong(EPOCH, 0);
  }

  /**
   * The epoch of the snapshot committed by the last applied entry whose namespace checkpoint is
   * still to be taken, or -1 (see MetaStateMachine: it is taken right after the commit is applied,
   * before anything else changes the namespace).
   */
  public long capturePending() {
    return systemLong(CAPTURE_PENDING, -1);
  }

  /** The pending snapshot's checkpoint is taken. */
  public void captureDone() throws IOException {
    String failure =
        guarded(
            () -> {
              try {
                db.delete(system, writeOptions, CAPTURE_PENDING);
                return null;
              } catch (RocksDBException e) {
                return e.getMessage();
              }
            });
    if (failure != null) {
      throw new IOException("cannot record the snapshot checkpoint as taken: " + failure);
    }
  }

  /** A record of {@code system} (null: none). */
  byte[] systemValue(byte[] key) {
    return get(system, key);
  }

  long systemLong(byte[] key, long def) {
    byte[] v = get(system, key);
    return v == null ? def : Keys.id(v);
  }

  @Override
  public InodeProto inode(long id) {
    return parseInode(get(inodes, Keys.id(id)));
  }

  @Override
  public long child(long parentId, String name) {
    byte[] v = get(dentries, Keys.dentry(parentId, name));
    return v == null ? 0 : Keys.id(v);
  }

  @Override
  public List<Entry> children(long parentId, String startAfter, int limit) {
    return guarded(
        () -> {
          try (ReadOptions ro = new ReadOptions();
              RocksIterator it = db.newIterator(dentries, ro)) {
            return NamespaceTxn.scanChildren(it, parentId, startAfter, limit);
          }
        });
  }

  /** Registered data servers, by id. */
  public Map<String, HeartbeatRequestProto> registeredServers() {
    return guarded(this::scanServers);
  }

  private Map<String, HeartbeatRequestProto> scanServers() {
    Map<String, HeartbeatRequestProto> out = new LinkedHashMap<>();
    try (RocksIterator it = db.newIterator(servers)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.put(
            new String(it.key(), StandardCharsets.UTF_8),
            HeartbeatRequestProto.parseFrom(it.value()));
      }
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("corrupt data-server registration in " + dir, e);
    }
    return out;
  }

  /** Ids of files whose shards on {@code server} are stale, in id order, at most {@code limit}. */
  public List<Long> staleFiles(String server, int limit) {
    return filesOn(stale, server, limit);
  }

  /** How many files are stale on each server that has any. */
  public Map<String, Long> staleCounts() {
    return countsOf(stale);
  }

  /** Ids of files with a unit on {@code server}, in id order, at most {@code limit}. */
  public List<Long> placedFiles(String server, int limit) {
    return filesOn(placed, server, limit);
  }

  /**
   * How many files have a unit on the server (a range of the placement index: for draining
   * servers).
   */
  public long placedCount(String server) {
    return guarded(
        () -> {
          long n = 0;
          byte[] prefix = Keys.serverPrefix(server);
          try (RocksIterator it = db.newIterator(placed)) {
            for (it.seek(prefix); it.isValid() && Keys.hasPrefix(it.key(), prefix); it.next()) {
              n++;
            }
          }
          return n;
        });
  }

  /** Ids of files moved off {@code server} whose shards there were not deleted yet. */
  public List<Long> leftoverFiles(String server, int limit) {
    return filesOn(leftover, server, limit);
  }

  /** Whether {@code server} still holds shards of the file from before a move. */
  public boolean holdsLeftover(String server, long fileId) {
    return guarded(() -> get(leftover, Keys.serverFile(server, fileId)) != null);
  }

  /** How many moved files each server still holds shards of. */
  public Map<String, Long> leftoverCounts() {
    return countsOf(leftover);
  }

  private List<Long> filesOn(ColumnFamilyHandle index, String server, int limit) {
    return guarded(
        () -> {
          List<Long> out = new ArrayList<>();
          byte[] prefix = Keys.serverPrefix(server);
          try (RocksIterator it = db.newIterator(index)) {
            for (it.seek(prefix);
                it.isValid() && out.size() < limit && Keys.hasPrefix(it.key(), prefix);
                it.next()) {
              out.add(Keys.serverFileId(it.key()));
            }
          }
          return out;
        });
  }

  private Map<String, Long> countsOf(ColumnFamilyHandle index) {
    return guarded(
        () -> {
          Map<String, Long> out = new TreeMap<>();
          try (RocksIterator it = db.newIterator(index)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              out.merge(Keys.serverOfKey(it.key()), 1L, Long::sum);
            }
          }
          return out;
        });
  }

  /**
   * The replicated state of every data server that has one (servers never found down have none:
   * up).
   */
  public Map<String, ServerStateRecordProto> serverStates() {
    return guarded(
        () -> {
          Map<String, ServerStateRecordProto> out = new TreeMap<>();
          try (RocksIterator it = db.newIterator(serverStates)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              out.put(
                  new String(it.key(), StandardCharsets.UTF_8),
                  parse(it.value(), ServerStateRecordProto::parseFrom));
            }
          }
          return out;
        });
  }

  /** The QoS settings of every application that has its own, by application name. */
  public List<QosAppProto> qosSettings() {
    return recordsUnder(QOS_PREFIX, QosAppProto::parseFrom, "QoS");
  }

  /** Every console token (only their secrets' hashes). */
  public List<ConsoleTokenProto> consoleTokens() {
    return recordsUnder(CONSOLE_TOKEN_PREFIX, ConsoleTokenProto::parseFrom, "console token");
  }

  /** The records under a prefix of {@code system}, in key order. */
  <T> List<T> recordsUnder(String keyPrefix, Parser<T> parser, String what) {
    return guarded(
        () -> {
          List<T> out = new ArrayList<>();
          byte[] prefix = Keys.utf8(keyPrefix);
          try (RocksIterator it = db.newIterator(system)) {
            for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
              out.add(parser.parse(it.value()));
            }
          } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("corrupt " + what + " record in " + dir, e);
          }
          return out;
        });
  }

  /** Audit entries newest first, those numbered below {@code beforeSeq} (0: all), at most limit. */
  public List<AuditEntryProto> audit(long beforeSeq, int limit) {
    return guarded(
        () -> {
          List<AuditEntryProto> out = new ArrayList<>();
          byte[] from = auditKey(beforeSeq <= 0 ? Long.MAX_VALUE : beforeSeq - 1);
          try (RocksIterator it = db.newIterator(system)) {
            for (it.seekForPrev(from);
                it.isValid() && startsWith(it.key(), AUDIT_PREFIX) && out.size() < limit;
                it.prev()) {
              out.add(AuditEntryProto.parseFrom(it.value()));
            }
          } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("corrupt audit record in " + dir, e);
          }
          return out;
        });
  }

  static byte[] auditKey(long seq) {
    return ByteBuffer.allocate(AUDIT_PREFIX.length + 8).put(AUDIT_PREFIX).putLong(seq).array();
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  public List<SnapshotProto> snapshots() {
    return guarded(
        () -> {
          List<SnapshotProto> out = new ArrayList<>();
          try (RocksIterator it = db.newIterator(snapshots)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              out.add(SnapshotProto.parseFrom(it.value()));
            }
          } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("corrupt snapshot record in " + dir, e);
          }
          out.sort(Comparator.comparingLong(SnapshotProto::getEpoch));
          return out;
        });
  }

  /** The snapshot called {@code name}, or null. */
  public SnapshotProto snapshot(String name) {
    return parse(get(snapshots, Keys.utf8(name)), SnapshotProto::parseFrom);
  }

  /** The snapshot attempt under way, or null. */
  public PendingSnapshotProto pendingSnapshot() {
    return parse(get(system, PENDING_SNAPSHOT), PendingSnapshotProto::parseFrom);
  }

  interface Parser<T> {
    T parse(byte[] b) throws InvalidProtocolBufferException;
  }

  static <T> T parse(byte[] v, Parser<T> parser) {
    if (v == null) {
      return null;
    }
    try {
      return parser.parse(v);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("corrupt namespace record", e);
    }
  }

  /**
   * Removed files whose shards still wait to be deleted, at most {@code limit}: those that held
   * bytes first, each kind oldest first.
   */
  public Map<Long, LayoutProto> pendingReclaims(int limit) {
    return guarded(() -> scanReclaims(limit));
  }

  /**
   * How many removed files still wait to be deleted from data servers, counted up to {@code limit}.
   */
  public long pendingReclaimCount(long limit) {
    return countUpTo(reclaim, limit);
  }

  /**
   * Puts' partial copies, by id, at most {@code limit}: the leader removes those whose lease ran
   * out.
   */
  public List<Long> partialFiles(int limit) {
    return guarded(
        () -> {
          List<Long> out = new ArrayList<>();
          try (RocksIterator it = db.newIterator(partial)) {
            for (it.seekToFirst(); it.isValid() && out.size() < limit; it.next()) {
              out.add(Keys.id(it.key()));
            }
          }
          return out;
        });
  }

  /**
   * How many regular files have no parity (not redundant by their layout), counted up to {@code
   * limit}.
   */
  public long withoutParityCount(long limit) {
    return countUpTo(withoutParity, limit);
  }

  private long countUpTo(ColumnFamilyHandle family, long limit) {
    return guarded(
        () -> {
          long n = 0;
          try (RocksIterator it = db.newIterator(family)) {
            for (it.seekToFirst(); it.isValid() && n < limit; it.next()) {
              n++;
            }
          }
          return n;
        });
  }

  private Map<Long, LayoutProto> scanReclaims(int limit) {
    Map<Long, LayoutProto> out = new LinkedHashMap<>();
    try (RocksIterator it = db.newIterator(reclaim)) {
      for (it.seekToFirst(); it.isValid() && out.size() < limit; it.next()) {
        out.put(Keys.reclaimedFile(it.key()), LayoutProto.parseFrom(it.value()));
      }
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("corrupt reclaim record in " + dir, e);
    }
    return out;
  }

  /** A consistent copy of the store in {@code target} (hard links; milliseconds). */
  public void checkpoint(Path target) throws IOException {
    String failure =
        guarded(
            () -> {
              try (Checkpoint cp = Checkpoint.create(db)) {
                cp.createCheckpoint(target.toString());
                return null;
              } catch (RocksDBException e) {
                return e.getMessage();
              }
            });
    if (failure != null) {
      throw new IOException("cannot checkpoint the namespace to " + target + ": " + failure);
    }
  }

  byte[] get(ColumnFamilyHandle cf, byte[] key) {
    return guarded(
        () -> {
          try {
            return db.get(cf, key);
          } catch (RocksDBException e) {
            throw new UncheckedIOException(
                new IOException("namespace read failed: " + e.getMessage(), e));
          }
        });
  }

  static InodeProto parseInode(byte[] v) {
    if (v == null) {
      return null;
    }
    try {
      return InodeProto.parseFrom(v);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("corrupt inode record", e);
    }
  }

  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      lock.writeLock().unlock();
    }
    try {
      db.flushWal(true);
    } catch (RocksDBException e) {
      // the log replays whatever the WAL lacks
    }
    handles.forEach(ColumnFamilyHandle::close);
    db.close();
    writeOptions.close();
    cfOptions.close();
    dbOptions.close();
  }
}
