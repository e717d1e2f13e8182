package io.tessera.client.admin;

import io.tessera.client.DirectoryPage;
import io.tessera.client.FileStatus;
import io.tessera.client.Futures;
import io.tessera.client.VirtualFileSystem;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.util.Iterator;

/**
 * A directory's entries in name order, fetched a page at a time (never the whole directory at
 * once).
 */
final class DirectoryCursor {
  private static final int PAGE = 1000;

  private final VirtualFileSystem fs;
  private final String path;
  private Iterator<FileStatus> page;
  private boolean more = true;
  private String after = "";
  private FileStatus head;

  /** A cursor over {@code path}; a directory that does not exist reads as empty. */
  DirectoryCursor(VirtualFileSystem fs, String path) throws IOException {
    this.fs = fs;
    this.path = path;
    advance();
  }

  /** The current entry, or null at the end. */
  FileStatus head() {
    return head;
  }

  void advance() throws IOException {
    while ((page == null || !page.hasNext()) && more) {
      DirectoryPage p;
      try {
        p = Futures.get(fs.list(path, after, PAGE));
      } catch (TesseraException.NotFoundException e) {
        more = false;
        break;
      }
      page = p.entries().iterator();
      more = p.more();
      after = p.lastName();
    }
    head = page != null && page.hasNext() ? page.next() : null;
  }
}
