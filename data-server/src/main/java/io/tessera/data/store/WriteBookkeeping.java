package io.tessera.data.store;

import java.util.List;

/**
 * What lands in the same atomic step as a write: the lock it releases (null: none) and, for
 * each server the writer had to skip, an entry for {@code fileId} in the dirty-file log.
 */
public record WriteBookkeeping(byte[] releasedLock, long fileId, List<String> missingServers) {
  public static final WriteBookkeeping NONE = new WriteBookkeeping(null, 0, List.of());

  public WriteBookkeeping {
    missingServers = List.copyOf(missingServers);
  }
}
