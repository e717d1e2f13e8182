package io.tessera.cli.fs;

import io.tessera.client.TesseraFile;
import io.tessera.common.status.TesseraException.AlreadyExistsException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a get writes each local file: as {@code LOCAL.tessera-part}, renamed into place when
 * complete, so an interrupted get (Ctrl-C, SIGTERM, a lost cluster) leaves nothing behind and a
 * file it replaces stays whole until then. One Download serves every file of a get, several at
 * once; closing it (or the JVM's shutdown) removes the copies still in flight.
 */
final class Download implements AutoCloseable {
  private final boolean overwrite;
  private final Set<Path> inFlight = ConcurrentHashMap.newKeySet();
  private final Thread onInterrupt = new Thread(this::removeInFlight, "get-interrupted");

  /**
   * @param overwrite replace existing local files (else one is refused)
   */
  Download(boolean overwrite) {
    this.overwrite = overwrite;
    Runtime.getRuntime().addShutdownHook(onInterrupt);
  }

  /** Writes {@code f} as the regular file {@code target}, counting bytes in {@code t}. */
  void get(TesseraFile f, Path target, Transfer t) throws IOException {
    if (Files.exists(target) && !overwrite) {
      throw new AlreadyExistsException(target + " already exists (--overwrite replaces it)");
    }
    Path parent = target.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new NoSuchFileException(
          target.toString(), null, "no such local directory " + parent + " (create it first)");
    }
    Path tmp = target.resolveSibling(target.getFileName() + ".tessera-part");
    inFlight.add(tmp);
    boolean moved = false;
    try {
      try (InputStream in = f.newInputStream(0);
          OutputStream out = Files.newOutputStream(tmp)) {
        t.copy(in, out);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
    } finally {
      if (!moved) {
        deleteQuietly(tmp);
      }
      inFlight.remove(tmp);
    }
  }

  @Override
  public void close() {
    removeInFlight();
    try {
      Runtime.getRuntime().removeShutdownHook(onInterrupt);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run
    }
  }

  private void removeInFlight() {
    inFlight.forEach(Download::deleteQuietly);
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // nothing more to do on the way out
    }
  }
}
