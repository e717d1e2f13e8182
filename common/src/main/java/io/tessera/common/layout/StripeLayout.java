package io.tessera.common.layout;

import io.tessera.common.config.DataSize;
import io.tessera.common.proto.LayoutProto;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each byte of a striped file lives. Stripe {@code s} covers file bytes {@code [s*k*U,
 * (s+1)*k*U)}; its data unit {@code j} holds bytes {@code [s*k*U + j*U, +U)}. Units {@code k..n-1}
 * of a stripe are parity. Unit {@code j} of stripe {@code s} is stored on {@code servers[(j + s) %
 * n]}, so the role of each server rotates from stripe to stripe (declustered parity): every server
 * carries data and parity alike.
 */
public final class StripeLayout {
  public static final int MIN_STRIPE_UNIT = 4096;
  public static final int MAX_STRIPE_UNIT = 64 << 20;

  private final int unit;
  private final int k;
  private final int m;
  private final List<String> servers;

  /**
   * Bumped each time recovery moves the file's units to another server (data servers fence older
   * ones).
   */
  private final long generation;

  public StripeLayout(int stripeUnit, int dataUnits, int parityUnits, List<String> servers) {
    this(stripeUnit, dataUnits, parityUnits, servers, 0);
  }

  public StripeLayout(
      int stripeUnit, int dataUnits, int parityUnits, List<String> servers, long generation) {
    validate(stripeUnit, dataUnits, parityUnits);
    if (servers.size() != dataUnits + parityUnits) {
      throw new IllegalArgumentException(
          "layout "
              + dataUnits
              + "+"
              + parityUnits
              + " needs "
              + (dataUnits + parityUnits)
              + " servers, got "
              + servers.size());
    }
    this.unit = stripeUnit;
    this.k = dataUnits;
    this.m = parityUnits;
    this.servers = List.copyOf(servers);
    this.generation = generation;
  }

  public static StripeLayout of(LayoutProto p) {
    return new StripeLayout(
        p.getStripeUnit(),
        p.getDataUnits(),
        p.getParityUnits(),
        p.getServersList(),
        p.getGeneration());
  }

  /** The layout after {@code from}'s units moved to {@code to}: the next generation. */
  public StripeLayout replacing(String from, String to) {
    int i = servers.indexOf(from);
    if (i < 0 || servers.contains(to)) {
      throw new IllegalArgumentException(
          "cannot move the units of " + from + " to " + to + " in " + servers);
    }
    List<String> next = new ArrayList<>(servers);
    next.set(i, to);
    return new StripeLayout(unit, k, m, next, generation + 1);
  }

  /** The layout's generation (0 until recovery first moves the file's units). */
  public long generation() {
    return generation;
  }

  /** Throws with a message a user can act on when the policy is impossible. */
  public static void validate(int stripeUnit, int dataUnits, int parityUnits) {
    if (stripeUnit < MIN_STRIPE_UNIT
        || stripeUnit > MAX_STRIPE_UNIT
        || Integer.bitCount(stripeUnit) != 1) {
      throw new IllegalArgumentException(
          "stripe unit " + stripeUnit + " must be a power of two from 4 KiB to 64 MiB");
    }
    validateUnits(dataUnits, parityUnits);
  }

  /** Throws with a message a user can act on when k+m could be no file's layout. */
  public static void validateUnits(int dataUnits, int parityUnits) {
    if (dataUnits < 1) {
      throw new IllegalArgumentException(
          "a layout needs at least one data unit (k >= 1), got " + dataUnits);
    }
    if (parityUnits < 0) {
      throw new IllegalArgumentException("parity units cannot be negative, got " + parityUnits);
    }
    if (dataUnits + parityUnits > 255) {
      throw new IllegalArgumentException("k + m = " + (dataUnits + parityUnits) + " exceeds 255");
    }
  }

  public int stripeUnit() {
    return unit;
  }

  public int dataUnits() {
    return k;
  }

  public int parityUnits() {
    return m;
  }

  public int width() {
    return k + m;
  }

  public List<String> servers() {
    return servers;
  }

  /** Bytes of file data in one stripe. */
  public long stripeDataBytes() {
    return (long) k * unit;
  }

  public long stripeOf(long fileOffset) {
    return fileOffset / stripeDataBytes();
  }

  /** Index into {@link #servers()} of the server holding unit {@code u} of stripe {@code s}. */
  public int serverIndex(long stripe, int u) {
    return (int) ((u + stripe) % width());
  }

  public String serverOf(long stripe, int u) {
    return servers.get(serverIndex(stripe, u));
  }

  /**
   * Cuts the file range {@code [offset, offset+length)} into pieces that each lie inside one data
   * unit, in file order.
   */
  public List<ShardPiece> pieces(long offset, long length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    List<ShardPiece> out = new ArrayList<>();
    long pos = offset;
    long end = offset + length;
    while (pos < end) {
      long stripe = pos / stripeDataBytes();
      long inStripe = pos - stripe * stripeDataBytes();
      int u = (int) (inStripe / unit);
      int inUnit = (int) (inStripe - (long) u * unit);
      int len = (int) Math.min(unit - inUnit, end - pos);
      out.add(new ShardPiece(stripe, u, inUnit, len, pos - offset));
      pos += len;
    }
    return out;
  }

  /**
   * For a file of {@code size} bytes: how many bytes of each unit of its last stripe lie below
   * {@code size}. Parity units keep as many bytes as the longest data unit (unit 0): past that,
   * every data column is zero and so is its parity.
   */
  public int[] keptUnitLengths(long size) {
    long stripe = size / stripeDataBytes();
    int[] keep = new int[width()];
    for (int u = 0; u < keep.length; u++) {
      keep[u] = storedLength(size, stripe, u);
    }
    return keep;
  }

  /**
   * How many bytes of unit {@code u} of {@code stripe} lie below {@code size} (0 past the end). A
   * parity unit counts as long as the stripe's longest data unit (unit 0).
   */
  public int storedLength(long size, long stripe, int u) {
    long inStripe = size - stripe * stripeDataBytes();
    long start = u < k ? (long) u * unit : 0;
    return (int) Math.max(0, Math.min(unit, inStripe - start));
  }

  @Override
  public String toString() {
    return (m == 0 ? "striped " + k + "+0" : "RS " + k + "+" + m)
        + ", unit "
        + DataSize.format(unit);
  }
}
