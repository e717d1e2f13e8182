package io.tessera.data.store;

/**
 * How a store's value files meet the file system.
 *
 * @param directWrites units a streaming writer replaced whole are written past the page cache
 *     (O_DIRECT, where the file system allows it)
 * @param directReads a read of a whole unit that is not in the cache is read past it (and stays
 *     out)
 * @param spareBytes files of removed values kept, up to this many bytes, to hold new values (see
 *     {@link SpareFiles}); 0 unlinks them
 */
public record ValueFileOptions(boolean directWrites, boolean directReads, long spareBytes) {
  /** The data server's defaults. */
  public static final ValueFileOptions DEFAULTS = new ValueFileOptions(false, true, 256L << 20);
}
