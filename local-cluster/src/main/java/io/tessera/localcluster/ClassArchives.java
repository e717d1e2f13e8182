package io.tessera.localcluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Class data sharing for server JVMs. A server JVM spends most of its start loading and verifying
 * the same few thousand classes; an archive of them (one per kind of server) makes a start, and
 * every restart of a killed server, cheaper.
 *
 * <p>The first server of each kind started without an archive writes one when it exits cleanly
 * ({@code -XX:ArchiveClassesAtExit}); once the cluster has stopped, an archive a JVM accepts
 * becomes its kind's, used from the next start on. Archives live in {@code cds/} next to the
 * distribution's jars, named by a digest of the class path (each jar's size and time), the JVM and
 * the servers' options, so a rebuild or another JVM never meets a stale one. A class path with
 * anything but jars (a test run's class directories), or a read-only distribution, gets none.
 */
final class ClassArchives {
  private static final Logger LOG = LoggerFactory.getLogger(ClassArchives.class);

  private final Path dir;
  private final List<String> launcher;
  private final String classPath;

  /** Per kind: the archive a server of it writes at exit, not yet accepted. */
  private final Map<String, Path> written = new ConcurrentHashMap<>();

  private final Map<String, List<String>> kindOptions = new ConcurrentHashMap<>();

  private ClassArchives(Path dir, List<String> launcher, String classPath) {
    this.dir = dir;
    this.launcher = launcher;
    this.classPath = classPath;
  }

  /**
   * Archives for servers run by {@code launcher} (a java command line with {@code -cp}); none when
   * its Java runtime has no base class archive, as runtimes built with jlink lack one (a JVM asked
   * to write an archive there refuses to start).
   */
  static ClassArchives forLauncher(List<String> launcher) {
    String classPath = StartupCaches.classPath(launcher);
    Path dir = StartupCaches.dir(StartupCaches.jars(classPath), "cds");
    if (dir != null && !hasBaseArchive(Path.of(launcher.get(0)))) {
      LOG.info(
          "This Java runtime ({}) has no base class archive (jlink builds lack one): servers start without"
              + " class archives, a little slower",
          Path.of(launcher.get(0)).toAbsolutePath().getParent().getParent());
      dir = null;
    }
    return new ClassArchives(dir, launcher, classPath);
  }

  /** Whether the runtime of this {@code java} executable has the JDK's default class archive. */
  static boolean hasBaseArchive(Path java) {
    Path home;
    try {
      home = java.toRealPath().getParent().getParent();
    } catch (IOException | NullPointerException e) {
      return false;
    }
    for (String vm : List.of("server", "client")) {
      for (String name : List.of("classes.jsa", "classes_nocoops.jsa")) {
        if (Files.isRegularFile(home.resolve("lib").resolve(vm).resolve(name))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The JVM options that give a server of {@code kind} (started with {@code options}) its archive.
   */
  List<String> options(String kind, List<String> options) {
    if (dir == null) {
      return List.of();
    }
    kindOptions.put(kind, options);
    Path archive = archive(kind);
    if (Files.isRegularFile(archive)) {
      return List.of("-XX:SharedArchiveFile=" + archive);
    }
    Path pending = dir.resolve(archive.getFileName() + ".part-" + ProcessHandle.current().pid());
    // the JVM's list of classes it cannot archive (picocli's old class files) is no news to an
    // operator
    return written.putIfAbsent(kind, pending) == null
        ? List.of("-XX:ArchiveClassesAtExit=" + pending, "-Xlog:cds=off,cds+dynamic=off")
        : List.of();
  }

  /**
   * After every server stopped: each archive written at exit that a JVM accepts becomes its kind's.
   */
  void settle() {
    written.forEach(
        (kind, pending) -> {
          try {
            if (Files.isRegularFile(pending)
                && Files.size(pending) > 0
                && accepted(kind, pending)) {
              Path archive = archive(kind);
              Files.move(
                  pending,
                  archive,
                  StandardCopyOption.ATOMIC_MOVE,
                  StandardCopyOption.REPLACE_EXISTING);
              dropOlder(dir, kind, archive);
              LOG.debug(
                  "Class archive for {} servers written ({}): they start faster from now on",
                  kind,
                  archive);
            } else {
              Files.deleteIfExists(pending);
            }
          } catch (IOException | InterruptedException e) {
            LOG.debug("No class archive for {} servers: {}", kind, e.getMessage());
            try {
              Files.deleteIfExists(pending);
            } catch (IOException ignored) {
              // the name is this process's own; a later run writes its own
            }
            if (e instanceof InterruptedException) {
              Thread.currentThread().interrupt();
            }
          }
        });
    written.clear();
  }

  /**
   * Archives of the kind for jars or a JVM since replaced. The newest other one stays: one build's
   * servers may run from two class paths (the distribution's jars, and a test run's), each with its
   * archive, and neither should cost the other its own.
   */
  static void dropOlder(Path dir, String kind, Path current) throws IOException {
    List<Path> others = new ArrayList<>();
    try (var all = Files.newDirectoryStream(dir, kind + "-*.jsa")) {
      for (Path p : all) {
        if (!p.equals(current)) {
          others.add(p);
        }
      }
    }
    others.sort(Comparator.comparing(ClassArchives::modified).reversed());
    for (Path old : others.subList(Math.min(1, others.size()), others.size())) {
      Files.deleteIfExists(old);
    }
  }

  private static FileTime modified(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException gone) {
      return FileTime.fromMillis(0);
    }
  }

  /** Whether a JVM with this class path and the kind's options starts with the archive required. */
  private boolean accepted(String kind, Path candidate) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(launcher.get(0));
    cmd.addAll(kindOptions.getOrDefault(kind, List.of()));
    cmd.addAll(
        List.of("-Xshare:on", "-XX:SharedArchiveFile=" + candidate, "-cp", classPath, "-version"));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return false;
    }
    return p.exitValue() == 0;
  }

  private Path archive(String kind) {
    return dir.resolve(kind + "-" + digest(kindOptions.getOrDefault(kind, List.of())) + ".jsa");
  }

  private String digest(List<String> options) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      List<String> jvm = new ArrayList<>(launcher);
      jvm.remove(classPath); // its jars count below, by size and time
      md.update(
          (System.getProperty("java.vm.version")
                  + "|"
                  + String.join(" ", jvm)
                  + "|"
                  + String.join(" ", options))
              .getBytes(StandardCharsets.UTF_8));
      for (String entry : classPath.split(File.pathSeparator)) {
        Path p = Path.of(entry);
        md.update(
            (entry + "|" + Files.size(p) + "|" + Files.getLastModifiedTime(p).toMillis() + "\n")
                .getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(md.digest(), 0, 8);
    } catch (IOException | NoSuchAlgorithmException e) {
      return "unreadable";
    }
  }
}
