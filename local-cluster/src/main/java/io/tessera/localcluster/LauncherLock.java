package io.tessera.localcluster;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock a launcher holds on its cluster directory while it runs ({@code <dir>/launcher.pid},
 * holding its PID). A second launcher on the same directory refuses at once, naming the first,
 * before it touches anything: its servers could not have taken the directories' locks anyway, and
 * it would have overwritten cluster.json with their PIDs.
 */
public final class LauncherLock implements Closeable {
  static final String NAME = "launcher.pid";

  private final FileChannel channel;
  private final FileLock lock;

  private LauncherLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the directory for this process.
   *
   * @throws IllegalStateException when another launcher runs the cluster in {@code dir}
   */
  public static LauncherLock acquire(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(NAME);
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException sameProcess) {
      lock = null;
    }
    if (lock == null) {
      String owner = holder(ch);
      ch.close();
      throw new IllegalStateException(
          "the cluster in "
              + dir
              + " is already run by tessera local (PID "
              + owner
              + "); stop that one first (kill -TERM "
              + owner
              + "), or give this one another --dir");
    }
    ch.truncate(0);
    ch.write(
        ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)),
        0);
    ch.force(true);
    return new LauncherLock(ch, lock);
  }

  private static String holder(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(32);
    int n = ch.read(b, 0);
    String pid = n <= 0 ? "" : new String(b.array(), 0, n, StandardCharsets.UTF_8).trim();
    return pid.matches("\\d+") ? pid : "unknown";
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
