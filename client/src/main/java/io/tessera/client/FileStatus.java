package io.tessera.client;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutKindProto;
import java.time.Instant;
import java.util.List;

/**
 * What {@code stat} tells about a file or directory.
 *
 * @param path the path it was looked up by
 * @param fileId the inode number, stable across renames
 * @param directory whether it is a directory
 * @param size bytes (0 for directories)
 * @param mode POSIX permission bits
 * @param modified last change of content
 * @param changed last change of content or attributes
 * @param layout how a regular file is striped; null for directories
 * @param staleServers servers of the layout whose shards missed writes while they were down (reads
 *     decode around them until recovery rebuilds them)
 * @param recordedMode the mode as the file system records it: for an entry under {@code
 *     /.snapshots}, the mode it had when the snapshot was taken ({@code mode} there lacks the write
 *     bits, the view being read-only); elsewhere the same as {@code mode}
 * @param defaultLayout a directory's own default layout for new files in it; null for files and for
 *     directories that inherit their parent's
 * @param owner its owner and group
 * @param created when it was created (with {@code fileId}, names this file for good; the epoch for
 *     files created before creation times were kept)
 * @param log a log-structured file's writers and index; null for striped files and directories
 */
public record FileStatus(
    String path,
    long fileId,
    boolean directory,
    long size,
    int mode,
    Instant modified,
    Instant changed,
    StripeLayout layout,
    List<String> staleServers,
    int recordedMode,
    LayoutPolicy defaultLayout,
    Owner owner,
    Instant created,
    LogStatus log) {

  static FileStatus of(String path, InodeProto in) {
    boolean dir = in.getType() == FileTypeProto.DIRECTORY;
    return new FileStatus(
        path,
        in.getId(),
        dir,
        in.getSize(),
        in.getMode(),
        Instant.ofEpochMilli(in.getMtimeMs()),
        Instant.ofEpochMilli(in.getCtimeMs()),
        !dir && in.hasLayout() && in.getLayout().getServersCount() > 0
            ? StripeLayout.of(in.getLayout())
            : null,
        List.copyOf(in.getStaleServersList()),
        in.getInSnapshot() ? in.getSnapshotMode() : in.getMode(),
        dir && in.getHasDefaultLayout() ? LayoutPolicy.of(in.getDefaultLayout()) : null,
        new Owner(in.getUid(), in.getGid()),
        Instant.ofEpochMilli(in.getBornMs()),
        !dir && in.hasLayout() && in.getLayout().getKind() == LayoutKindProto.LOG
            ? LogStatus.of(in)
            : null);
  }

  /** The last path component ("/" for the root). */
  public String name() {
    if (path.equals("/")) {
      return "/";
    }
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return p.substring(p.lastIndexOf('/') + 1);
  }
}
