package io.tessera.client.internal;

import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * A parity write's work on one stripe: which old bytes to read, then the new parity.
 *
 * <p>Parity is computed over the columns {@code [c0, c1)} of the units that the write touches (a
 * column is one byte offset inside a unit). Three ways to get it:
 *
 * <ul>
 *   <li><b>full</b>: the write covers the whole stripe, nothing is read;
 *   <li><b>reconstruct-write</b>: read the untouched bytes of the data units in those columns and
 *       encode the new data;
 *   <li><b>read-modify-write</b>: read the old bytes under the write and the old parity, and add
 *       the encoded difference to the parity (the code is linear over GF(2^8)).
 * </ul>
 *
 * The cheaper of the last two (fewer bytes read) is taken. When a data unit cannot be used (server
 * down or stale, shard corrupt) the stripe is <b>degraded</b>: any {@code k} usable units of the
 * columns are read, the rest decoded, then the new data laid over.
 */
final class StripeUpdate {
  enum Mode {
    FULL,
    RECONSTRUCT,
    READ_MODIFY,
    DEGRADED
  }

  /**
   * One old range to fetch: unit {@code unit}, bytes {@code [offset, offset+length)} into {@code
   * into[at..]}.
   */
  record Read(int unit, int offset, int length, byte[] into, int at) {}

  /** One range to store: unit {@code unit} at {@code offset}, bytes {@code from[at, at+length)}. */
  record Write(int unit, int offset, int length, byte[] from, int at) {}

  private final StripeLayout layout;
  private final long stripe;
  private final int k;
  private final int n;
  private final int unit;

  /** The write's bytes in stripe coordinates [a, b); buffer index of stripe byte x is base + x. */
  private final int a;

  private final int b;
  private final byte[] buf;
  private final long base;
  private final int c0;
  private final int c1;
  private Mode mode;
  private byte[][] shards;
  private byte[][] oldParity;
  private boolean[] present;

  /**
   * The part of a write of {@code buf[off, off+len)} at file position {@code pos} that falls in
   * {@code stripe}.
   */
  StripeUpdate(StripeLayout layout, long stripe, long pos, byte[] buf, int off, int len) {
    this.layout = layout;
    this.stripe = stripe;
    this.k = layout.dataUnits();
    this.n = layout.width();
    this.unit = layout.stripeUnit();
    long start = stripe * layout.stripeDataBytes();
    this.a = (int) (Math.max(pos, start) - start);
    this.b = (int) (Math.min(pos + len, start + layout.stripeDataBytes()) - start);
    if (a >= b) {
      throw new IllegalArgumentException("stripe " + stripe + " is outside the write");
    }
    this.buf = buf;
    this.base = off + start - pos;
    int lo = unit;
    int hi = 0;
    for (int j = 0; j < k; j++) {
      if (writtenLength(j) > 0) {
        lo = Math.min(lo, writtenStart(j));
        hi = Math.max(hi, writtenStart(j) + writtenLength(j));
      }
    }
    this.c0 = lo;
    this.c1 = hi;
  }

  /** Whether the write replaces the whole stripe (then none of its units is read to update it). */
  boolean replacesStripe() {
    return a == 0 && b == layout.stripeDataBytes();
  }

  long stripe() {
    return stripe;
  }

  Mode mode() {
    return mode;
  }

  /** First column of data unit {@code j} the write covers (meaningful when its length is > 0). */
  private int writtenStart(int j) {
    return Math.max(a, j * unit) - j * unit;
  }

  private int writtenLength(int j) {
    return Math.max(0, Math.min(b, (j + 1) * unit) - Math.max(a, j * unit));
  }

  /**
   * Chooses how to get the parity given which units can be used, and returns the old bytes to read
   * first.
   *
   * @throws TesseraException when fewer than {@code k} units of the stripe can be used
   */
  List<Read> plan(IntPredicate usable) throws TesseraException {
    return plan(usable, null);
  }

  /**
   * As {@link #plan(IntPredicate)}; a whole-stripe write takes its parity units from {@code
   * buffers}.
   */
  List<Read> plan(IntPredicate usable, ParityBuffers buffers) throws TesseraException {
    int cols = c1 - c0;
    int usableUnits = 0;
    boolean allData = true;
    int usableParity = 0;
    for (int u = 0; u < n; u++) {
      boolean ok = usable.test(u);
      usableUnits += ok ? 1 : 0;
      allData &= ok || u >= k;
      usableParity += ok && u >= k ? 1 : 0;
    }
    if (usableUnits < k) {
      throw new TesseraException(
          StatusProto.UNAVAILABLE,
          "stripe "
              + stripe
              + " has "
              + usableUnits
              + " of its "
              + n
              + " servers usable; writing it needs "
              + k
              + " (check tessera cluster status)");
    }
    present = new boolean[n];
    List<Read> reads = new ArrayList<>();
    if (a == 0 && b == layout.stripeDataBytes()) {
      mode = Mode.FULL; // the data units are encoded where they lie in the writer's buffer
      shards = new byte[n][];
      for (int p = k; p < n; p++) {
        shards[p] = buffers == null ? new byte[cols] : buffers.take(cols);
      }
      return reads;
    }
    shards = new byte[n][cols];
    long written = 0;
    for (int j = 0; j < k; j++) {
      written += writtenLength(j);
    }
    long reconstructCost = (long) k * cols - written;
    long readModifyCost = written + (long) usableParity * cols;
    if (!allData) {
      mode = Mode.DEGRADED;
      int taken = 0;
      for (int u = 0; u < n && taken < k; u++) {
        if (usable.test(u)) {
          reads.add(new Read(u, c0, cols, shards[u], 0));
          present[u] = true;
          taken++;
        }
      }
    } else if (reconstructCost <= readModifyCost) {
      mode = Mode.RECONSTRUCT;
      for (int j = 0; j < k; j++) {
        int ws = writtenLength(j) > 0 ? writtenStart(j) : c1;
        int we = writtenLength(j) > 0 ? ws + writtenLength(j) : c1;
        if (ws > c0) {
          reads.add(new Read(j, c0, ws - c0, shards[j], 0));
        }
        if (we < c1) {
          reads.add(new Read(j, we, c1 - we, shards[j], we - c0));
        }
      }
    } else {
      mode = Mode.READ_MODIFY;
      oldParity = new byte[n][];
      for (int j = 0; j < k; j++) {
        if (writtenLength(j) > 0) {
          reads.add(
              new Read(j, writtenStart(j), writtenLength(j), shards[j], writtenStart(j) - c0));
        }
      }
      for (int p = k; p < n; p++) {
        if (usable.test(p)) {
          oldParity[p] = new byte[cols];
          reads.add(new Read(p, c0, cols, oldParity[p], 0));
        }
      }
    }
    return reads;
  }

  /** Computes the new parity once the planned reads have landed. */
  void encode(ErasureCodec codec) {
    int cols = c1 - c0;
    if (mode == Mode.FULL) {
      byte[][] at = shards.clone();
      int[] offsets = new int[n];
      for (int j = 0; j < k; j++) {
        at[j] = buf;
        offsets[j] = (int) (base + (long) j * unit);
      }
      codec.encodeAt(at, offsets, cols);
      return;
    }
    if (mode == Mode.DEGRADED) {
      codec.reconstruct(shards, present, 0, cols);
    }
    for (int j = 0; j < k; j++) {
      int len = writtenLength(j);
      if (len == 0) {
        continue;
      }
      int at = writtenStart(j) - c0;
      int from = (int) (base + (long) j * unit + writtenStart(j));
      if (mode == Mode.READ_MODIFY) {
        byte[] s = shards[j];
        for (int i = 0; i < len; i++) {
          s[at + i] ^= buf[from + i]; // old ^ new: the change to encode
        }
      } else {
        System.arraycopy(buf, from, shards[j], at, len);
      }
    }
    codec.encode(shards, 0, cols);
    if (mode == Mode.READ_MODIFY) {
      for (int p = k; p < n; p++) {
        if (oldParity[p] != null) {
          byte[] s = shards[p];
          byte[] old = oldParity[p];
          for (int i = 0; i < cols; i++) {
            s[i] ^= old[i];
          }
        }
      }
    }
  }

  /**
   * Hands a whole-stripe write's parity units back to {@code buffers}: only once no request holds
   * them any more (every server stored them, or none was sent).
   */
  void recycle(ParityBuffers buffers) {
    if (mode == Mode.FULL) {
      for (int p = k; p < n; p++) {
        if (shards[p] != null) {
          buffers.give(shards[p]);
          shards[p] = null;
        }
      }
    }
  }

  /** Units this write changes, usable or not: the data units under it and every parity unit. */
  List<Integer> unitsToWrite() {
    List<Integer> out = new ArrayList<>();
    for (int j = 0; j < k; j++) {
      if (writtenLength(j) > 0) {
        out.add(j);
      }
    }
    for (int p = k; p < n; p++) {
      out.add(p);
    }
    return out;
  }

  /**
   * What to store, on usable units only: the new data under the write and the new parity of its
   * columns.
   */
  List<Write> writes(IntPredicate usable) {
    List<Write> out = new ArrayList<>();
    for (int j = 0; j < k; j++) {
      if (writtenLength(j) > 0 && usable.test(j)) {
        out.add(
            new Write(
                j,
                writtenStart(j),
                writtenLength(j),
                buf,
                (int) (base + (long) j * unit + writtenStart(j))));
      }
    }
    for (int p = k; p < n; p++) {
      // read-modify-write knows the new parity only where it read the old
      if (usable.test(p) && (mode != Mode.READ_MODIFY || oldParity[p] != null)) {
        out.add(new Write(p, c0, c1 - c0, shards[p], 0));
      }
    }
    return out;
  }
}
