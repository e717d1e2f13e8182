package io.tessera.client.nio;

import io.tessera.client.CreateOptions;
import io.tessera.client.VirtualFileSystem;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One Tessera cluster as a {@link FileSystem}: one root, one store, POSIX attributes. The working
 * directory of relative paths is the root.
 */
final class TesseraNioFileSystem extends FileSystem {
  private final TesseraFileSystemProvider provider;
  private final String authority;
  private final VirtualFileSystem fs;
  private final Supplier<CreateOptions> createOptions;
  private volatile boolean open = true;

  TesseraNioFileSystem(
      TesseraFileSystemProvider provider,
      String authority,
      VirtualFileSystem fs,
      Supplier<CreateOptions> createOptions) {
    this.provider = provider;
    this.authority = authority;
    this.fs = fs;
    this.createOptions = createOptions;
  }

  String authority() {
    return authority;
  }

  VirtualFileSystem files() {
    if (!open) {
      throw new java.nio.file.ClosedFileSystemException();
    }
    return fs;
  }

  /** The options new files are created with ({@code tessera.ec} when given at creation). */
  CreateOptions createOptions() {
    return createOptions.get();
  }

  @Override
  public TesseraFileSystemProvider provider() {
    return provider;
  }

  @Override
  public void close() throws IOException {
    if (open) {
      open = false;
      provider.closed(this);
      fs.close();
    }
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public String getSeparator() {
    return "/";
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    return List.of(getPath("/"));
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return List.of(new TesseraFileStore(this));
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return Set.of("basic", "posix", "owner");
  }

  @Override
  public Path getPath(String first, String... more) {
    return TesseraPath.parse(this, first, more);
  }

  /** Glob and regex patterns, with the default file system's rules, over the path's text. */
  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher m = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
    return p -> m.matches(java.nio.file.Path.of(p.toString()));
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    return new UserPrincipalLookupService() {
      @Override
      public UserPrincipal lookupPrincipalByName(String name) throws IOException {
        return new TesseraFileAttributes.NumericPrincipal(number(name), false);
      }

      @Override
      public GroupPrincipal lookupPrincipalByGroupName(String group) throws IOException {
        return new TesseraFileAttributes.NumericPrincipal(number(group), true);
      }

      private int number(String name) throws UserPrincipalNotFoundException {
        try {
          return Integer.parseInt(name);
        } catch (NumberFormatException e) {
          throw new UserPrincipalNotFoundException(name); // owners are numeric: give a uid or gid
        }
      }
    };
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException(
        "Tessera has no change notifications: poll with Files.getLastModifiedTime instead");
  }
}
