package io.tessera.client;

import java.util.List;

/**
 * One page of a directory listing.
 *
 * @param entries the entries of this page, by name
 * @param more whether entries follow; ask again with {@link #lastName()} as the start
 */
public record DirectoryPage(List<FileStatus> entries, boolean more) {
  /** The name to continue after, or "" for an empty page. */
  public String lastName() {
    return entries.isEmpty() ? "" : entries.get(entries.size() - 1).name();
  }
}
