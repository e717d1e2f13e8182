package io.tessera.data.store;

/**
 * Where a store's value files bypass the page cache (O_DIRECT), where the file system allows it.
 *
 * @param writes units a streaming writer replaced whole are written past the cache
 * @param reads a read of a whole unit that is not in the cache is read past it (and stays out)
 */
public record DirectIo(boolean writes, boolean reads) {
  /** Both: the data server's default. */
  public static final DirectIo BOTH = new DirectIo(true, true);
}
