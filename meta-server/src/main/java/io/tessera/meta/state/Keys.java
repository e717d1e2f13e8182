package io.tessera.meta.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Key codecs of the namespace column families. */
final class Keys {
  private Keys() {}

  static byte[] id(long id) {
    return ByteBuffer.allocate(8).putLong(id).array();
  }

  static long id(byte[] b) {
    return ByteBuffer.wrap(b).getLong();
  }

  /** The first byte of an empty file's reclaim key: above every id's first byte. */
  private static final byte EMPTY_FILE = (byte) 0xFF;

  /**
   * reclaim: the file id for a file that held bytes, EMPTY_FILE | id for one that did not, so a
   * scan from the start frees space first: a backlog of tens of thousands of removed empty files (a
   * metadata benchmark) no longer holds back the space of large files removed after it, whose
   * unreclaimed shards kept the data servers' page cache full and their disks writing back.
   */
  static byte[] reclaim(long fileId, boolean heldBytes) {
    return heldBytes ? id(fileId) : ByteBuffer.allocate(9).put(EMPTY_FILE).putLong(fileId).array();
  }

  /** The file id of a reclaim key. */
  static long reclaimedFile(byte[] key) {
    return key.length == 9 ? ByteBuffer.wrap(key, 1, 8).getLong() : id(key);
  }

  /**
   * dentries: parentId | name (UTF-8), so a directory's entries are adjacent and sorted by name.
   */
  static byte[] dentry(long parentId, String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(8 + n.length).putLong(parentId).put(n).array();
  }

  static long dentryParent(byte[] key) {
    return ByteBuffer.wrap(key).getLong();
  }

  static String dentryName(byte[] key) {
    return new String(key, 8, key.length - 8, StandardCharsets.UTF_8);
  }

  static boolean hasPrefix(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /**
   * The per-server file indexes (stale, placed, leftover): server (UTF-8) | 0 | fileId, so one
   * server's files are adjacent.
   */
  static byte[] serverFile(String server, long fileId) {
    byte[] id = utf8(server);
    return ByteBuffer.allocate(id.length + 9).put(id).put((byte) 0).putLong(fileId).array();
  }

  static byte[] serverPrefix(String server) {
    byte[] id = utf8(server);
    return ByteBuffer.allocate(id.length + 1).put(id).put((byte) 0).array();
  }

  static long serverFileId(byte[] key) {
    return ByteBuffer.wrap(key, key.length - 8, 8).getLong();
  }

  static String serverOfKey(byte[] key) {
    return new String(key, 0, key.length - 9, StandardCharsets.UTF_8);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
