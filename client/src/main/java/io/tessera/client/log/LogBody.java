package io.tessera.client.log;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.client.internal.FileBody;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.LogChangeRequestProto;
import io.tessera.common.proto.LogOpenProto;
import io.tessera.common.proto.LogWriterProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A log file's bytes (PLFS): this handle's writes go to a writer of its own, opened at its first
 * write; reads merge the committed indexes of every writer. Another client sees this handle's
 * writes after its {@link #sync()} or {@link #close()} (close-to-open, as NFS gives); this handle
 * sees them at once. The last writer to close flattens the index.
 */
public final class LogBody implements FileBody {
  private static final Logger LOG = LoggerFactory.getLogger(LogBody.class);

  private final LogFiles files;
  private final long fileId;
  private final String path;

  /** "/.snapshots/NAME" for a snapshot's copy of the file, else null. */
  private final String snapshotRoot;

  private final LayoutProto layout;

  /** The inode as last learned: at open, from this handle's commits, or from a refresh. */
  private InodeProto inode;

  private CompletableFuture<LogWriter> writer;
  private CompletableFuture<LogView> view;

  public LogBody(LogFiles files, InodeProto inode, String path) {
    this.files = files;
    this.fileId = inode.getId();
    this.path = path;
    this.snapshotRoot = inode.getInSnapshot() ? snapshotRoot(path) : null;
    this.layout = inode.getLayout();
    this.inode = inode;
  }

  private static String snapshotRoot(String path) {
    String[] parts = path.split("/", 4);
    return parts.length >= 3 ? "/" + parts[1] + "/" + parts[2] : path;
  }

  @Override
  public synchronized long size() {
    LogWriter w = openedWriter();
    return Math.max(inode.getSize(), w == null ? 0 : w.logicalEnd());
  }

  @Override
  public long stripeDataBytes() {
    return (long) layout.getDataUnits() * layout.getStripeUnit();
  }

  @Override
  public CompletableFuture<Void> write(long position, byte[] buf, int off, int len) {
    return writer().thenCompose(w -> w.append(position, buf, off, len));
  }

  private synchronized CompletableFuture<LogWriter> writer() {
    if (writer == null || writer.isCompletedExceptionally()) {
      writer = openWriter(false);
    }
    return writer;
  }

  /** Opens a writer of the file: its data and index logs are created and placed. */
  private CompletableFuture<LogWriter> openWriter(boolean flattener) {
    LayoutPolicyProto policy =
        LayoutPolicyProto.newBuilder()
            .setDataUnits(layout.getDataUnits())
            .setParityUnits(layout.getParityUnits())
            .setStripeUnit(layout.getStripeUnit())
            .build();
    return files
        .change(
            LogChangeRequestProto.newBuilder()
                .setFileId(fileId)
                .setOpen(LogOpenProto.newBuilder().setFlattener(flattener).setPolicy(policy)))
        .thenCompose(
            r -> {
              LogWriterProto w = r.getLogWriter();
              var data =
                  flattener
                      ? CompletableFuture.completedFuture(
                          (io.tessera.client.internal.FileTarget) null)
                      : files.part(w.getDataFileId(), null);
              var index = files.part(w.getIndexFileId(), null);
              return data.thenCombine(
                  index,
                  (d, i) ->
                      new LogWriter(files, fileId, w.getWriter(), d, i, (int) stripeDataBytes()));
            });
  }

  @Override
  public CompletableFuture<Void> read(long position, byte[] buf, int off, int len) {
    return view().thenCompose(v -> v.read(position, buf, off, len));
  }

  @Override
  public CompletableFuture<ByteBuf> readKept(long position, int len) {
    byte[] out = new byte[len];
    return read(position, out, 0, len).thenApply(v -> Unpooled.wrappedBuffer(out));
  }

  /**
   * The merged indexes as of the newest state this handle knows, this handle's own writes committed
   * first (it reads what it wrote).
   */
  private synchronized CompletableFuture<LogView> view() {
    LogWriter w = openedWriter();
    if (w != null && w.dirty()) {
      return commit(false, false).thenCompose(in -> view());
    }
    if (view == null
        || view.isCompletedExceptionally()
        || (view.isDone() && !view.join().state().equals(inode.getLog()))) {
      view = LogView.load(files, snapshotRoot, inode.getLog(), stripeDataBytes());
    }
    return view;
  }

  private CompletableFuture<InodeProto> commit(boolean durable, boolean close) {
    CompletableFuture<LogWriter> w;
    synchronized (this) {
      w = writer;
    }
    if (w == null) {
      return CompletableFuture.completedFuture(inode);
    }
    return w.thenCompose(x -> x.commit(durable, close)).thenApply(this::learned);
  }

  private synchronized InodeProto learned(InodeProto newer) {
    inode = newer;
    return newer;
  }

  @Override
  public CompletableFuture<Void> sync() {
    return commit(true, false).thenApply(in -> null);
  }

  @Override
  public CompletableFuture<Void> publish() {
    return commit(false, false).thenApply(in -> null);
  }

  @Override
  public CompletableFuture<Void> truncate(long newSize) {
    return commit(false, false)
        .thenCompose(
            in ->
                files.meta.call(
                    MetaRequestProto.newBuilder()
                        .setSetAttr(
                            SetAttrRequestProto.newBuilder()
                                .setFileId(fileId)
                                .setSetSize(true)
                                .setSize(newSize))))
        .thenAccept(
            r -> {
              learned(r.getInode());
              LogWriter w = openedWriter();
              if (w != null) {
                w.truncated(newSize);
              }
            });
  }

  /** This handle's writer if it has one open, else null. */
  private synchronized LogWriter openedWriter() {
    return writer != null && writer.isDone() && !writer.isCompletedExceptionally()
        ? writer.join()
        : null;
  }

  @Override
  public CompletableFuture<Long> refresh() {
    GetAttrRequestProto.Builder g = GetAttrRequestProto.newBuilder().setFileId(fileId);
    if (snapshotRoot != null) {
      g.setPath(snapshotRoot);
    }
    return files
        .meta
        .call(MetaRequestProto.newBuilder().setGetAttr(g))
        .thenApply(r -> learned(r.getInode()))
        .thenApply(in -> size());
  }

  /**
   * Commits this handle's writes and ends its writer; when no other writer is open, flattens the
   * index (a failure to flatten leaves the file as readable, only slower to open).
   */
  @Override
  public CompletableFuture<Void> close() {
    CompletableFuture<LogWriter> w;
    synchronized (this) {
      w = writer;
      writer = null;
    }
    if (w == null) {
      return CompletableFuture.completedFuture(null);
    }
    return w.thenCompose(x -> x.commit(false, true))
        .thenApply(this::learned)
        .thenCompose(
            in -> {
              boolean othersOpen =
                  in.getLog().getWritersList().stream()
                      .anyMatch(o -> o.getOpen() && o.getDataFileId() != 0);
              if (othersOpen || !files.flattenOnClose) {
                return CompletableFuture.completedFuture(null);
              }
              return flatten()
                  .handle(
                      (v, e) -> {
                        if (e != null) {
                          LOG.info(
                              "{}: index not flattened on close ({}); tessera fs flatten does it",
                              path,
                              e.getMessage());
                        }
                        return null;
                      });
            });
  }

  /**
   * Writes the merged index of every committed record as one flattened index, which later opens
   * read instead of every writer's.
   */
  public CompletableFuture<Void> flatten() {
    return refresh()
        .thenCompose(size -> view())
        .thenCompose(
            v ->
                openWriter(true)
                    .thenCompose(f -> LogFlattener.write(files, fileId, f, v))
                    .thenAccept(this::learned));
  }

  @Override
  public Set<String> staleServers() {
    return Set.of(); // each log keeps its own
  }
}
