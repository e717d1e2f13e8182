package io.tessera.client.nio;

import static io.tessera.client.nio.TesseraFileSystemProvider.call;
import static io.tessera.client.nio.TesseraFileSystemProvider.files;
import static io.tessera.client.nio.TesseraFileSystemProvider.path;

import io.tessera.client.DirectoryPage;
import io.tessera.client.FileStatus;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;

/** A directory's entries, a page at a time, as the caller iterates. */
final class DirectoryListing implements DirectoryStream<Path> {
  private static final int LIST_PAGE = 1000;

  private final Path dir;
  private final DirectoryStream.Filter<? super Path> filter;
  private boolean iterated;
  private boolean closed;

  DirectoryListing(Path dir, DirectoryStream.Filter<? super Path> filter) {
    this.dir = dir;
    this.filter = filter;
  }

  @Override
  public java.util.Iterator<Path> iterator() {
    if (iterated || closed) {
      throw new IllegalStateException("a directory stream is iterated once, while open");
    }
    iterated = true;
    return new java.util.Iterator<>() {
      private final java.util.ArrayDeque<Path> buffered = new java.util.ArrayDeque<>();
      private String after = "";
      private boolean more = true;

      @Override
      public boolean hasNext() {
        while (buffered.isEmpty() && more && !closed) {
          try {
            DirectoryPage page =
                call(files(dir).list(path(dir).clusterPath(), after, LIST_PAGE), dir);
            for (FileStatus s : page.entries()) {
              Path child = dir.resolve(s.name());
              if (filter == null || filter.accept(child)) {
                buffered.add(child);
              }
            }
            more = page.more();
            after = page.more() ? page.lastName() : after;
          } catch (IOException e) {
            throw new java.nio.file.DirectoryIteratorException(e);
          }
        }
        return !buffered.isEmpty() && !closed;
      }

      @Override
      public Path next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return buffered.poll();
      }
    };
  }

  @Override
  public void close() {
    closed = true;
  }
}
