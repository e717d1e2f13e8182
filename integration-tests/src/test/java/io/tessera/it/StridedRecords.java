package io.tessera.it;

import io.tessera.client.TesseraFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * An N-1 strided checkpoint as LANL's MPI-IO Test writes one: writer {@code w} of {@code N} writes
 * records w, w+N, w+2N, ... of 47,001 bytes each, every record's bytes known from its writer and
 * number.
 */
final class StridedRecords {
  static final int RECORD = 47_001;

  private StridedRecords() {}

  /** Writer {@code w}'s record {@code i}. */
  static byte[] record(int w, int i) {
    byte[] b = new byte[RECORD];
    new Random(w * 1_000_003L + i).nextBytes(b);
    return b;
  }

  /** Where writer {@code w} of {@code writers} puts its record {@code i}. */
  static long at(int writers, int w, int i) {
    return ((long) i * writers + w) * RECORD;
  }

  /** Each writer {@code w} (its own handle) writes its records {@code from..to-1} at once. */
  static CompletableFuture<Void> write(List<TesseraFile> handles, int from, int to) {
    int writers = handles.size();
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      TesseraFile f = handles.get(w);
      int writer = w;
      done.add(
          CompletableFuture.runAsync(
              () -> {
                for (int i = from; i < to; i++) {
                  try {
                    f.write(at(writers, writer, i), record(writer, i), 0, RECORD);
                  } catch (Exception e) {
                    throw new RuntimeException(e);
                  }
                }
              }));
    }
    return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
  }

  /** Reads every record of {@code writers} writers, {@code from..to-1} each, and compares. */
  static void verify(TesseraFile f, int writers, int from, int to) throws Exception {
    byte[] got = new byte[RECORD];
    for (int i = from; i < to; i++) {
      for (int w = 0; w < writers; w++) {
        f.readFully(at(writers, w, i), got, 0, RECORD);
        if (!java.util.Arrays.equals(got, record(w, i))) {
          throw new AssertionError("writer " + w + " record " + i + " differs");
        }
      }
    }
  }
}
