package io.tessera.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.status.TesseraException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One stripe held in memory as its servers would hold it; random partial writes go through {@link
 * StripeUpdate} (plan, serve the reads, encode, apply the writes) and afterwards the data must
 * equal a plain byte array model and the parity must match the data, whichever way the parity was
 * computed and whichever units were unusable.
 */
class StripeUpdateTest {
  private static final int UNIT = 4096;

  @ParameterizedTest(name = "RS {0}+{1}, {2} unusable unit(s)")
  @CsvSource({"4,2,0", "4,2,1", "4,2,2", "6,3,0", "6,3,3", "3,1,1", "1,2,1", "2,4,3"})
  void randomWritesKeepDataAndParityConsistent(int k, int m, int unusable) throws Exception {
    StripeLayout layout =
        new StripeLayout(UNIT, k, m, IntStream.range(0, k + m).mapToObj(i -> "ds-" + i).toList());
    ErasureCodec codec = ErasureCodec.reedSolomon(k, m);
    Random rnd = new Random(k * 100 + m * 10 + unusable);
    byte[][] stored = new byte[k + m][UNIT];
    byte[] model = new byte[k * UNIT];
    List<StripeUpdate.Mode> seen = new ArrayList<>();
    for (int round = 0; round < 300; round++) {
      int a = rnd.nextInt(model.length);
      int len = 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : model.length - a);
      len = Math.min(len, model.length - a);
      if (round % 50 == 0) {
        a = 0;
        len = model.length; // now and then a whole stripe
      }
      byte[] buf = new byte[len + 7];
      rnd.nextBytes(buf);
      boolean[] ok = new boolean[k + m];
      Arrays.fill(ok, true);
      for (int i = 0; i < unusable; i++) {
        ok[(round + i * 2) % (k + m)] = false; // a rotating set of unusable units
      }
      // the stripe as an unusable unit's server would hold it must not be read: blank it
      byte[][] visible = new byte[k + m][];
      for (int u = 0; u < k + m; u++) {
        visible[u] = ok[u] ? stored[u] : new byte[UNIT];
      }
      StripeUpdate update = new StripeUpdate(layout, 0, a, buf, 3, len);
      for (StripeUpdate.Read r : update.plan(u -> ok[u])) {
        assertThat(ok[r.unit()]).as("reads only usable units").isTrue();
        System.arraycopy(visible[r.unit()], r.offset(), r.into(), r.at(), r.length());
      }
      update.encode(codec);
      seen.add(update.mode());
      for (StripeUpdate.Write w : update.writes(u -> ok[u])) {
        assertThat(ok[w.unit()]).as("writes only usable units").isTrue();
        System.arraycopy(w.from(), w.at(), stored[w.unit()], w.offset(), w.length());
      }
      System.arraycopy(buf, 3, model, a, len);
      // the unusable units missed the write: decoding them from the others must give the new stripe
      codec.reconstruct(stored, ok, 0, UNIT);
      for (int j = 0; j < k; j++) {
        assertThat(Arrays.copyOfRange(model, j * UNIT, (j + 1) * UNIT)).isEqualTo(stored[j]);
      }
      assertThat(codec.isParityCorrect(stored, 0, UNIT))
          .as("parity after write %d (%s)", round, update.mode())
          .isTrue();
    }
    if (unusable == 0) {
      assertThat(seen)
          .contains(
              StripeUpdate.Mode.FULL, StripeUpdate.Mode.RECONSTRUCT, StripeUpdate.Mode.READ_MODIFY);
    }
  }

  @ParameterizedTest(name = "RS {0}+{1}")
  @CsvSource({"4,2", "6,3"})
  void aStripeWithFewerThanKUsableUnitsIsRefused(int k, int m) {
    StripeLayout layout =
        new StripeLayout(UNIT, k, m, IntStream.range(0, k + m).mapToObj(i -> "ds-" + i).toList());
    StripeUpdate update = new StripeUpdate(layout, 0, 10, new byte[100], 0, 100);
    assertThatThrownBy(() -> update.plan(u -> u > m))
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("needs " + k);
  }

  @ParameterizedTest(name = "RS {0}+{1}")
  @CsvSource({"4,2", "6,3", "10,4"})
  void smallWritesReadOldDataAndParityLargeOnesTheRest(int k, int m) throws Exception {
    StripeLayout layout =
        new StripeLayout(UNIT, k, m, IntStream.range(0, k + m).mapToObj(i -> "ds-" + i).toList());
    StripeUpdate small = new StripeUpdate(layout, 0, 100, new byte[10], 0, 10);
    int smallRead = small.plan(u -> true).stream().mapToInt(StripeUpdate.Read::length).sum();
    // reconstruct-write reads the k - 1 other units' columns; read-modify-write the old bytes and
    // parity
    assertThat(smallRead).isEqualTo(Math.min((k - 1) * 10, 10 + m * 10));
    assertThat(small.mode())
        .isEqualTo(
            (k - 1) * 10 <= 10 + m * 10
                ? StripeUpdate.Mode.RECONSTRUCT
                : StripeUpdate.Mode.READ_MODIFY);
    int big = (k - 1) * UNIT;
    StripeUpdate large = new StripeUpdate(layout, 0, 0, new byte[big], 0, big);
    int largeRead = large.plan(u -> true).stream().mapToInt(StripeUpdate.Read::length).sum();
    assertThat(large.mode()).isEqualTo(StripeUpdate.Mode.RECONSTRUCT);
    assertThat(largeRead).isEqualTo(UNIT);
  }
}
