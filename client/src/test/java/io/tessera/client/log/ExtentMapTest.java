package io.tessera.client.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.layout.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Where a log file's bytes are, as writers overwrite each other's records: checked against a byte
 * array that records, for every byte, which write put it there last.
 */
class ExtentMapTest {
  @Test
  void aLaterRecordReplacesWhatItOverlapsAndKeepsTheRestOfTheOlderOnes() {
    ExtentMap m = new ExtentMap();
    m.add(new LogRecord(0, 100, 0, 1, 1));
    m.add(new LogRecord(40, 20, 500, 2, 2));

    assertThat(m.within(0, 100))
        .containsExactly(
            new ExtentMap.Extent(0, 40, 1, 0, 1),
            new ExtentMap.Extent(40, 60, 2, 500, 2),
            new ExtentMap.Extent(60, 100, 1, 60, 1));
  }

  @Test
  void randomOverlappingRecordsMapEveryByteToTheLastWriteOfIt() {
    Random rnd = new Random(62);
    int size = 5_000;
    int[] lastWrite = new int[size]; // 0: never written
    long[] physicalOf = new long[size];
    ExtentMap m = new ExtentMap();
    List<LogRecord> records = new ArrayList<>();
    long physical = 0;
    for (int w = 1; w <= 400; w++) {
      int off = rnd.nextInt(size - 1);
      int len = 1 + rnd.nextInt(Math.min(300, size - off));
      LogRecord r = new LogRecord(off, len, physical, w, 1 + w % 7);
      records.add(r);
      m.add(r);
      for (int i = 0; i < len; i++) {
        lastWrite[off + i] = w;
        physicalOf[off + i] = physical + i;
      }
      physical += len;
    }
    int from = 1_000;
    int len = 3_000;
    long covered = from;
    for (ExtentMap.Extent e : m.within(from, len)) {
      assertThat(e.start()).as("in order, no overlap").isGreaterThanOrEqualTo(covered);
      for (long i = covered; i < e.start(); i++) {
        assertThat(lastWrite[(int) i]).as("byte %d is a hole", i).isZero();
      }
      for (long i = e.start(); i < e.end(); i++) {
        assertThat(e.stampMicros()).as("byte %d's last write", i).isEqualTo(lastWrite[(int) i]);
        assertThat(e.physical() + (i - e.start())).isEqualTo(physicalOf[(int) i]);
      }
      covered = e.end();
    }
    assertThat(covered).isLessThanOrEqualTo(from + len);
  }
}
