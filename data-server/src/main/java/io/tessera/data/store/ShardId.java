package io.tessera.data.store;

/** One stripe unit of one file: the thing a data server stores (in versions by epoch). */
public record ShardId(long fileId, long stripe, int unit) implements Comparable<ShardId> {
  @Override
  public int compareTo(ShardId o) {
    int c = Long.compare(fileId, o.fileId);
    if (c == 0) {
      c = Long.compare(stripe, o.stripe);
    }
    return c != 0 ? c : Integer.compare(unit, o.unit);
  }
}
