package io.tessera.common.platform;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Names the filesystem a directory is on, across machines: the machine's id and the filesystem's
 * device number. Data servers of one machine whose directories share a disk name the same one, so
 * the cluster's capacity counts that disk once.
 */
public final class FilesystemId {
  private FilesystemId() {}

  /** The filesystem {@code dir} is on; "" when this platform does not say. */
  public static String of(Path dir) {
    try {
      Object dev = Files.getAttribute(dir, "unix:dev");
      return machine() + ":" + dev;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "";
    }
  }

  private static String machine() throws IOException {
    Path id = Path.of("/etc/machine-id");
    if (Files.isReadable(id)) {
      String text = Files.readString(id).trim();
      if (!text.isEmpty()) {
        return text;
      }
    }
    return InetAddress.getLocalHost().getHostName();
  }
}
