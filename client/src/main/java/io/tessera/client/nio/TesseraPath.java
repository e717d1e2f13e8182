package io.tessera.client.nio;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path of a Tessera file system, with Unix rules: {@code /} separates names, an absolute path
 * starts with it, the empty path has one empty name. Paths are names only: nothing here asks the
 * cluster, except {@link #toRealPath}.
 */
final class TesseraPath implements Path {
  private final TesseraNioFileSystem fs;
  private final boolean absolute;
  private final List<String> names;

  private TesseraPath(TesseraNioFileSystem fs, boolean absolute, List<String> names) {
    this.fs = fs;
    this.absolute = absolute;
    this.names = List.copyOf(names);
  }

  static TesseraPath parse(TesseraNioFileSystem fs, String first, String... more) {
    StringBuilder b = new StringBuilder(first);
    for (String m : more) {
      if (!m.isEmpty()) {
        if (b.length() > 0) {
          b.append('/');
        }
        b.append(m);
      }
    }
    String s = b.toString();
    if (s.indexOf('\0') >= 0) {
      throw new java.nio.file.InvalidPathException(s, "a path may not contain NUL");
    }
    boolean abs = s.startsWith("/");
    List<String> parts = new ArrayList<>();
    for (String p : s.split("/")) {
      if (!p.isEmpty()) {
        parts.add(p);
      }
    }
    if (!abs && parts.isEmpty()) {
      parts.add(""); // the empty path
    }
    return new TesseraPath(fs, abs, parts);
  }

  /** The absolute path the cluster knows this path by. */
  String clusterPath() {
    TesseraPath a = (TesseraPath) toAbsolutePath().normalize();
    return a.names.isEmpty() ? "/" : "/" + String.join("/", a.names);
  }

  private boolean isEmptyPath() {
    return !absolute && names.size() == 1 && names.get(0).isEmpty();
  }

  @Override
  public FileSystem getFileSystem() {
    return fs;
  }

  @Override
  public boolean isAbsolute() {
    return absolute;
  }

  @Override
  public Path getRoot() {
    return absolute ? new TesseraPath(fs, true, List.of()) : null;
  }

  @Override
  public Path getFileName() {
    if (names.isEmpty()) {
      return null;
    }
    return new TesseraPath(fs, false, List.of(names.get(names.size() - 1)));
  }

  @Override
  public Path getParent() {
    if (names.isEmpty() || (names.size() == 1 && !absolute)) {
      return null;
    }
    return new TesseraPath(fs, absolute, names.subList(0, names.size() - 1));
  }

  @Override
  public int getNameCount() {
    return names.size();
  }

  @Override
  public Path getName(int index) {
    if (index < 0 || index >= names.size()) {
      throw new IllegalArgumentException("no name " + index + " in " + this);
    }
    return new TesseraPath(fs, false, List.of(names.get(index)));
  }

  @Override
  public Path subpath(int beginIndex, int endIndex) {
    if (beginIndex < 0 || endIndex > names.size() || beginIndex >= endIndex) {
      throw new IllegalArgumentException(
          "no names [" + beginIndex + ", " + endIndex + ") in " + this);
    }
    return new TesseraPath(fs, false, names.subList(beginIndex, endIndex));
  }

  @Override
  public boolean startsWith(Path other) {
    if (!(other instanceof TesseraPath o) || o.fs != fs || o.absolute != absolute) {
      return false;
    }
    if (o.isEmptyPath()) {
      return isEmptyPath();
    }
    return o.names.size() <= names.size() && names.subList(0, o.names.size()).equals(o.names);
  }

  @Override
  public boolean endsWith(Path other) {
    if (!(other instanceof TesseraPath o) || o.fs != fs) {
      return false;
    }
    if (o.absolute) {
      return equals(o);
    }
    if (o.isEmptyPath()) {
      return isEmptyPath();
    }
    int n = names.size();
    int m = o.names.size();
    return m <= n && names.subList(n - m, n).equals(o.names);
  }

  @Override
  public Path normalize() {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      if (n.equals(".")) {
        continue;
      }
      if (n.equals("..")) {
        if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
          out.remove(out.size() - 1);
          continue;
        }
        if (absolute) {
          continue; // above the root is the root
        }
      }
      out.add(n);
    }
    if (!absolute && out.isEmpty()) {
      out.add("");
    }
    return new TesseraPath(fs, absolute, out);
  }

  @Override
  public Path resolve(Path other) {
    TesseraPath o = checked(other);
    if (o.absolute) {
      return o;
    }
    if (o.isEmptyPath()) {
      return this;
    }
    if (isEmptyPath()) {
      return o;
    }
    List<String> all = new ArrayList<>(names);
    all.addAll(o.names);
    return new TesseraPath(fs, absolute, all);
  }

  @Override
  public Path relativize(Path other) {
    TesseraPath o = checked(other);
    if (o.absolute != absolute) {
      throw new IllegalArgumentException(
          "cannot relativize " + other + " against " + this + ": one is absolute, one not");
    }
    if (equals(o)) {
      return new TesseraPath(fs, false, List.of(""));
    }
    List<String> from = isEmptyPath() ? List.of() : names;
    List<String> to = o.isEmptyPath() ? List.of() : o.names;
    int common = 0;
    while (common < from.size() && common < to.size() && from.get(common).equals(to.get(common))) {
      common++;
    }
    List<String> out = new ArrayList<>();
    for (int i = common; i < from.size(); i++) {
      out.add("..");
    }
    out.addAll(to.subList(common, to.size()));
    if (out.isEmpty()) {
      out.add("");
    }
    return new TesseraPath(fs, false, out);
  }

  @Override
  public URI toUri() {
    try {
      return new URI(TesseraFileSystemProvider.SCHEME, fs.authority(), clusterPath(), null, null);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public Path toAbsolutePath() {
    if (absolute) {
      return this;
    }
    return new TesseraPath(fs, true, isEmptyPath() ? List.of() : names);
  }

  @Override
  public Path toRealPath(LinkOption... options) throws IOException {
    TesseraPath real = (TesseraPath) toAbsolutePath().normalize();
    fs.provider().readAttributes(real, java.nio.file.attribute.BasicFileAttributes.class);
    return real;
  }

  @Override
  public WatchKey register(
      WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException(
        "Tessera paths cannot be watched: poll with Files.getLastModifiedTime instead");
  }

  @Override
  public int compareTo(Path other) {
    return toString().compareTo(checked(other).toString());
  }

  private TesseraPath checked(Path other) {
    if (!(other instanceof TesseraPath o)) {
      throw new ProviderMismatchException(
          Objects.toString(other) + " is not a path of a Tessera file system");
    }
    return o;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TesseraPath p && p.fs == fs && p.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  @Override
  public String toString() {
    return (absolute ? "/" : "") + String.join("/", names);
  }
}
