package io.tessera.client.admin;

/**
 * One difference between two snapshots, paths relative to the file system root.
 *
 * @param type what happened
 * @param path the path in the newer snapshot (in the older one for DELETED)
 * @param fromPath for RENAMED, the path in the older snapshot; else null
 * @param directory whether the entry is a directory
 */
public record SnapshotChange(Type type, String path, String fromPath, boolean directory) {
  /** Kinds of change, as HDFS's snapshotDiff names them (+, -, M, R). */
  public enum Type {
    CREATED("+"),
    DELETED("-"),
    MODIFIED("M"),
    RENAMED("R");

    private final String mark;

    Type(String mark) {
      this.mark = mark;
    }

    public String mark() {
      return mark;
    }
  }

  @Override
  public String toString() {
    return type.mark() + " " + (fromPath == null ? path : fromPath + " -> " + path);
  }
}
