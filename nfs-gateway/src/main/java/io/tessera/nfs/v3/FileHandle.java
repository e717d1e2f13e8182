package io.tessera.nfs.v3;

import java.nio.ByteBuffer;

/**
 * An NFS file handle: which export, which inode (id and creation time, so a handle outliving its
 * file, or a reformatted namespace, is refused as stale and never names another file) and whether
 * it reaches the inode through a snapshot. Nothing in it depends on the gateway that made it: every
 * gateway with the same exports makes the same handles, before and after a restart.
 *
 * @param export the export's id (fsid)
 * @param kind {@link #LIVE}, {@link #SNAPSHOTS} (the /.snapshots directory) or {@link #SNAPSHOT}
 * @param epoch for {@link #SNAPSHOT}: the snapshot's epoch
 * @param fileId the inode number
 * @param born the inode's creation time (ms)
 */
public record FileHandle(int export, int kind, long epoch, long fileId, long born) {
  public static final int LIVE = 0;
  public static final int SNAPSHOTS = 1;
  public static final int SNAPSHOT = 2;
  private static final byte FORMAT = 1;
  static final int LENGTH = 30;

  public byte[] bytes() {
    return ByteBuffer.allocate(LENGTH)
        .put(FORMAT)
        .put((byte) kind)
        .putInt(export)
        .putLong(epoch)
        .putLong(fileId)
        .putLong(born)
        .array();
  }

  /** Decodes a handle; anything this gateway could not have made is a bad handle. */
  public static FileHandle of(byte[] b) throws NfsError {
    if (b.length != LENGTH || b[0] != FORMAT || b[1] < LIVE || b[1] > SNAPSHOT) {
      throw new NfsError(Nfs3.ERR_BADHANDLE, "not a handle of this gateway");
    }
    ByteBuffer in = ByteBuffer.wrap(b, 2, LENGTH - 2);
    int export = in.getInt();
    long epoch = in.getLong();
    long fileId = in.getLong();
    return new FileHandle(export, b[1], epoch, fileId, in.getLong());
  }

  public boolean inSnapshot() {
    return kind != LIVE;
  }
}
