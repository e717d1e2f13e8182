package io.tessera.cli.fs;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.status.TesseraException.AlreadyExistsException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * How a put writes each file: under a hidden name ({@code .NAME.tessera-part-PID}), renewing that
 * copy's lease while it writes, made durable, then renamed into place. An interrupted put leaves no
 * half-written file behind, and a file it replaces stays whole until then. One Upload serves every
 * file of a put, several at once; closing it (or the JVM's shutdown, on Ctrl-C) removes the copies
 * still in flight.
 */
final class Upload implements AutoCloseable {
  private static final Pattern PARTIAL = Pattern.compile("\\..*\\.tessera-part-[0-9]+");

  /** The longest name the namespace takes, in UTF-8 bytes. */
  static final int MAX_NAME_BYTES = 255;

  private final TesseraFileSystem fs;

  /** Every copy's options, set once: several files are put at once. */
  private final CreateOptions options;

  private final boolean overwrite;
  private final boolean sync;
  private final Duration lease;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService renewer = DaemonTimer.named("put-lease");
  private final Thread onInterrupt = new Thread(this::removeInFlight, "put-interrupted");

  /**
   * @param layout the files' layout (null: each inherits its directory's)
   * @param overwrite replace existing files (else one is refused)
   * @param sync make each copy durable before it takes its name
   */
  Upload(TesseraFileSystem fs, CreateOptions layout, boolean overwrite, boolean sync) {
    this.fs = fs;
    this.overwrite = overwrite;
    this.sync = sync;
    this.lease = fs.async().partialLease();
    this.options =
        (layout == null ? CreateOptions.defaults() : layout).overwrite(true).partial(lease);
    Runtime.getRuntime().addShutdownHook(onInterrupt);
  }

  /** Refuses an existing {@code target} unless the put overwrites. */
  void checkTarget(String target) throws IOException {
    if (!overwrite && fs.exists(target)) {
      throw new AlreadyExistsException(
          Names.escaped(target) + " already exists (--overwrite replaces it)");
    }
  }

  /** Writes {@code in} as {@code target}, whose directory exists, counting bytes in {@code t}. */
  void put(InputStream in, String target, Transfer t) throws IOException {
    checkTarget(target);
    String parent = target.substring(0, Math.max(1, target.lastIndexOf('/')));
    String partial =
        parent.replaceAll("/$", "")
            + "/"
            + partialName(
                target.substring(target.lastIndexOf('/') + 1), ProcessHandle.current().pid());
    inFlight.add(partial);
    boolean renamed = false;
    ScheduledFuture<?> renewal = null;
    try {
      try (TesseraFile f = fs.createFile(partial, options)) {
        // a put killed outright stops renewing: the cluster removes its copy once the lease ends
        long every = Math.max(1, lease.toMillis() / 3);
        renewal =
            renewer.scheduleWithFixedDelay(
                () -> renewQuietly(f), every, every, TimeUnit.MILLISECONDS);
        t.copy(in, f.newOutputStream(0));
        if (sync) {
          f.sync(); // before the rename publishes the name
        }
      }
      fs.rename(partial, target, overwrite);
      renamed = true;
    } finally {
      if (renewal != null) {
        renewal.cancel(false);
      }
      if (!renamed) {
        removeQuietly(partial);
      }
      inFlight.remove(partial);
    }
  }

  /**
   * The hidden name a put writes under: {@code .NAME.tessera-part-PID}, NAME cut short (whole
   * characters) where the whole would pass the 255-byte limit on names, so any name that fits can
   * be put.
   */
  static String partialName(String name, long pid) {
    String suffix = ".tessera-part-" + pid;
    int room = MAX_NAME_BYTES - 1 - suffix.length();
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= room) {
      return "." + name + suffix;
    }
    StringBuilder cut = new StringBuilder();
    int used = 0;
    for (int i = 0; i < name.length(); ) {
      int cp = name.codePointAt(i);
      int bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (used + bytes > room) {
        break;
      }
      cut.appendCodePoint(cp);
      used += bytes;
      i += Character.charCount(cp);
    }
    return "." + cut + suffix;
  }

  /** Whether {@code name} is a put's copy in flight, as {@link #partialName} makes them. */
  static boolean isPartialName(String name) {
    return PARTIAL.matcher(name).matches();
  }

  @Override
  public void close() {
    renewer.shutdownNow();
    removeInFlight();
    try {
      Runtime.getRuntime().removeShutdownHook(onInterrupt);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run
    }
  }

  private void removeInFlight() {
    inFlight.forEach(this::removeQuietly);
  }

  private void renewQuietly(TesseraFile f) {
    try {
      fs.renewPartial(f, lease);
    } catch (IOException | RuntimeException e) {
      // the next renewal tries again; the copy stays while the lease lasts
    }
  }

  private void removeQuietly(String path) {
    try {
      fs.delete(path, false);
    } catch (IOException | RuntimeException e) {
      // already gone (renamed, or removed by the other path), or the cluster is unreachable
    }
  }
}
