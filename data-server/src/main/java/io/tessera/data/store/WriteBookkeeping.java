package io.tessera.data.store;

import java.util.List;

/**
 * What lands in the same atomic step as a write: the lock it releases (null: none) and, for each
 * server the writer had to skip, an entry for {@code fileId} in the dirty-file log. {@code
 * staleMarked}: the writer recorded the skipped servers as stale in the meta group while holding
 * its locks (needed for a server that has no entry here yet).
 */
public record WriteBookkeeping(
    byte[] releasedLock, long fileId, List<String> missingServers, boolean staleMarked) {
  public static final WriteBookkeeping NONE = new WriteBookkeeping(null, 0, List.of(), false);

  public WriteBookkeeping {
    missingServers = List.copyOf(missingServers);
  }
}
