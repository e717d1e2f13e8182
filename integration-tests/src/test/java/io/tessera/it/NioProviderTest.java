package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The java.nio provider ({@code tessera://}) against a cluster in this JVM, and against Google's
 * Jimfs as the reference: one script of operations runs on both, and every result and every
 * exception type must match (no conformance suite for providers exists; this is how we show it
 * behaves as Java code expects).
 */
class NioProviderTest {
  @TempDir static java.nio.file.Path dir;
  static InProcessFixture cluster;
  static FileSystem tessera;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessFixture.start(dir, 1, 3);
    tessera =
        FileSystems.newFileSystem(
            URI.create("tessera://" + cluster.plan.metaAddresses() + "/"),
            Map.of("credentials", cluster.plan.adminCredentials().toString(), "tessera.ec", "2+1"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (tessera != null) {
      tessera.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void everyStepOfTheScriptEndsAsOnJimfs() throws Exception {
    try (FileSystem jimfs =
        Jimfs.newFileSystem(
            Configuration.unix().toBuilder()
                .setAttributeViews("basic", "owner", "posix")
                .build())) {
      Path reference = jimfs.getPath("/script");
      Files.createDirectory(reference);
      Path ours = tessera.getPath("/script");
      Files.createDirectory(ours);
      List<String> expected = script(reference);
      List<String> actual = script(ours);
      assertThat(actual).containsExactlyElementsOf(expected);
    }
  }

  /** The script: each step's result, or the type of what it threw. */
  private static List<String> script(Path root) throws Exception {
    List<String> out = new ArrayList<>();
    byte[] data = new byte[300_000];
    new Random(7).nextBytes(data);
    Path a = root.resolve("a");
    Path deep = a.resolve("b/c");
    Path f = a.resolve("b/f.bin");
    step(out, "createDirectories", () -> Files.createDirectories(deep).toString().endsWith("c"));
    step(out, "write", () -> Files.write(f, data).getFileName().toString());
    step(out, "size", () -> Files.size(f));
    step(out, "read back", () -> java.util.Arrays.equals(Files.readAllBytes(f), data));
    step(
        out,
        "positional write past the end",
        () -> {
          try (SeekableByteChannel ch = Files.newByteChannel(f, StandardOpenOption.WRITE)) {
            ch.position(400_000).write(ByteBuffer.wrap("tail".getBytes(StandardCharsets.UTF_8)));
            return ch.size();
          }
        });
    step(
        out,
        "positional read",
        () -> {
          try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(8);
            ch.read(b, 399_998);
            return java.util.Arrays.toString(b.array());
          }
        });
    step(
        out,
        "truncate",
        () -> {
          try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(1000);
            ch.force(true);
            return ch.size();
          }
        });
    step(
        out,
        "append",
        () -> {
          try (OutputStream o = Files.newOutputStream(f, StandardOpenOption.APPEND)) {
            o.write(new byte[] {1, 2, 3});
          }
          return Files.size(f);
        });
    step(
        out,
        "stream read",
        () -> {
          try (InputStream in = Files.newInputStream(f)) {
            return in.readAllBytes().length;
          }
        });
    Path g = a.resolve("g.bin");
    step(out, "move", () -> Files.move(f, g).getFileName().toString());
    step(out, "moved away", () -> Files.exists(f));
    step(out, "copy", () -> Files.copy(g, f).getFileName().toString());
    step(out, "copy over an existing file", () -> Files.copy(g, f));
    step(
        out,
        "copy over with REPLACE_EXISTING",
        () -> Files.size(Files.copy(g, f, StandardCopyOption.REPLACE_EXISTING)));
    step(out, "move over an existing file", () -> Files.move(g, f));
    step(
        out,
        "move over atomically",
        () ->
            Files.move(g, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
                .getFileName()
                .toString());
    step(out, "delete a non-empty directory", () -> deleted(a));
    step(out, "delete a missing file", () -> deleted(g));
    step(out, "deleteIfExists a missing file", () -> Files.deleteIfExists(g));
    step(out, "read a missing file", () -> Files.readAllBytes(g).length);
    step(out, "create an existing directory", () -> Files.createDirectory(deep));
    step(out, "create in a missing directory", () -> Files.createFile(a.resolve("x/y")));
    step(out, "create in a file", () -> Files.createFile(f.resolve("y")));
    step(out, "list a file", () -> listed(f));
    step(
        out,
        "CREATE_NEW on an existing file",
        () -> Files.newByteChannel(f, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW));
    step(out, "read a directory as a file", () -> Files.readAllBytes(a).length);
    step(out, "list", () -> listed(a));
    step(out, "walk", () -> walked(root));
    step(out, "is directory", () -> Files.isDirectory(deep) + " " + Files.isRegularFile(deep));
    step(out, "is file", () -> Files.isDirectory(f) + " " + Files.isRegularFile(f));
    step(
        out,
        "permissions",
        () -> {
          Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
          return PosixFilePermissions.toString(
              Files.readAttributes(f, PosixFileAttributes.class).permissions());
        });
    step(
        out,
        "modification time",
        () -> {
          java.nio.file.attribute.FileTime t =
              java.nio.file.attribute.FileTime.fromMillis(1_700_000_000_000L);
          Files.setLastModifiedTime(f, t);
          return Files.getLastModifiedTime(f);
        });
    step(out, "readAttributes by name", () -> Files.readAttributes(f, "size,isDirectory"));
    step(out, "same file", () -> Files.isSameFile(f, a.resolve("b/../b/f.bin")));
    step(out, "delete the tree", () -> deleteTree(a));
    step(out, "gone", () -> Files.exists(a));
    return out;
  }

  private interface Step {
    Object run() throws Exception;
  }

  private static void step(List<String> out, String name, Step s) {
    String result;
    try {
      result = String.valueOf(s.run());
    } catch (Exception e) {
      result = "throws " + e.getClass().getSimpleName();
    }
    out.add(name + ": " + result);
  }

  private static boolean deleted(Path p) throws IOException {
    Files.delete(p);
    return true;
  }

  private static List<String> listed(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      s.forEach(p -> names.add(p.getFileName().toString()));
    }
    names.sort(null);
    return names;
  }

  private static List<String> walked(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  private static int deleteTree(Path root) throws IOException {
    List<Path> all;
    try (Stream<Path> s = Files.walk(root)) {
      all = s.sorted(java.util.Comparator.reverseOrder()).toList();
    }
    for (Path p : all) {
      Files.delete(p);
    }
    return all.size();
  }

  @Test
  void filesCopyInAndOutKeepsEveryByteAndTheStoreReportsTheClustersSpace() throws Exception {
    byte[] data = new byte[3_000_000];
    new Random(11).nextBytes(data);
    java.nio.file.Path local = dir.resolve("in.bin");
    Files.write(local, data);
    Path remote = tessera.getPath("/copied/in.bin");
    Files.createDirectories(remote.getParent());
    Files.copy(local, remote);
    java.nio.file.Path back = dir.resolve("back.bin");
    Files.copy(remote, back);
    assertThat(Files.readAllBytes(back)).isEqualTo(data);
    assertThat(cluster.fs.stat("/copied/in.bin").layout().toString()).startsWith("RS 2+1");
    FileStore store = Files.getFileStore(remote);
    assertThat(store.getTotalSpace()).isPositive();
    assertThat(store.getUsableSpace()).isBetween(1L, store.getTotalSpace());
    assertThat(tessera.getPath("a/../b/./c").normalize().toString()).isEqualTo("b/c");
    assertThat(remote.toUri().toString()).startsWith("tessera://").endsWith("/copied/in.bin");
    assertThat(tessera.provider().getPath(remote.toUri())).isEqualTo(remote);
    assertThatThrownBy(tessera::newWatchService)
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("poll");
  }
}
