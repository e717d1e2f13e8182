package io.tessera.bench;

import io.tessera.client.RegionLock;
import io.tessera.client.TesseraFile;
import java.io.IOException;
import java.util.Arrays;

/**
 * What one exerciser process does to its region of the shared file, record by record, as pCFS's
 * exercisers did: read or write, with no lock, one lock over the whole region, or a lock per
 * record.
 */
enum ExerciserKind {
  wrt(true, Locking.NONE),
  wrtLck(true, Locking.REGION),
  wrtSmlLck(true, Locking.RECORD),
  rdr(false, Locking.NONE),
  rdrLck(false, Locking.REGION),
  rdrSmlLck(false, Locking.RECORD);

  enum Locking {
    NONE,
    REGION,
    RECORD
  }

  final boolean writes;
  final Locking locking;

  ExerciserKind(boolean writes, Locking locking) {
    this.writes = writes;
    this.locking = locking;
  }

  /** The name users type and read: wrt-sml-lck. */
  String label() {
    return name().replace("Sml", "-sml").replace("Lck", "-lck");
  }

  static ExerciserKind parse(String label) {
    for (ExerciserKind k : values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "no exerciser kind "
            + label
            + ": one of "
            + String.join(", ", Arrays.stream(values()).map(ExerciserKind::label).toList()));
  }

  /**
   * Runs over {@code [start, start + length)} of {@code f} in records of {@code record} bytes; a
   * reader checks every byte a writer of {@code process} wrote.
   */
  void run(TesseraFile f, int process, long start, long length, int record) throws IOException {
    byte[] buf = new byte[record];
    RegionLock whole = locking == Locking.REGION ? f.lock(start, length, !writes) : null;
    try {
      for (long at = start; at < start + length; at += record) {
        int n = (int) Math.min(record, start + length - at);
        RegionLock one = locking == Locking.RECORD ? f.lock(at, n, !writes) : null;
        try {
          if (writes) {
            fill(buf, process, at);
            f.write(at, buf, 0, n);
          } else {
            f.readFully(at, buf, 0, n);
            check(buf, n, process, at);
          }
        } finally {
          if (one != null) {
            one.close();
          }
        }
      }
    } finally {
      if (whole != null) {
        whole.close();
      }
    }
  }

  private static void fill(byte[] buf, int process, long at) {
    Arrays.fill(buf, value(process, at));
  }

  private static void check(byte[] buf, int n, int process, long at) throws IOException {
    byte want = value(process, at);
    for (int i = 0; i < n; i++) {
      if (buf[i] != want) {
        throw new IOException(
            "byte " + (at + i) + " reads " + buf[i] + ", process " + process + " wrote " + want);
      }
    }
  }

  private static byte value(int process, long at) {
    return (byte) (31 * process + (at >>> 12));
  }
}
