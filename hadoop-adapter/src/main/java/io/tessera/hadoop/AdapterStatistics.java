package io.tessera.hadoop;

import java.util.Map;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;

/**
 * What the adapter did, as Hadoop's {@link IOStatistics}: calls on the file system and bytes
 * through its streams, under Hadoop's standard statistic names.
 */
public final class AdapterStatistics implements IOStatisticsSource {
  private final IOStatisticsStore store =
      IOStatisticsBinding.iostatisticsStore()
          .withCounters(
              StoreStatisticNames.OP_OPEN,
              StoreStatisticNames.OP_CREATE,
              StoreStatisticNames.OP_RENAME,
              StoreStatisticNames.OP_DELETE,
              StoreStatisticNames.OP_LIST_STATUS,
              StoreStatisticNames.OP_MKDIRS,
              StoreStatisticNames.OP_GET_FILE_STATUS,
              StreamStatisticNames.STREAM_READ_BYTES,
              StreamStatisticNames.STREAM_READ_OPERATIONS,
              StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS,
              StreamStatisticNames.STREAM_WRITE_BYTES,
              StoreStatisticNames.OP_HFLUSH,
              StoreStatisticNames.OP_HSYNC)
          .build();

  void opened() {
    store.incrementCounter(StoreStatisticNames.OP_OPEN);
  }

  void created() {
    store.incrementCounter(StoreStatisticNames.OP_CREATE);
  }

  void renamed() {
    store.incrementCounter(StoreStatisticNames.OP_RENAME);
  }

  void deleted() {
    store.incrementCounter(StoreStatisticNames.OP_DELETE);
  }

  void listed() {
    store.incrementCounter(StoreStatisticNames.OP_LIST_STATUS);
  }

  void mkdirs() {
    store.incrementCounter(StoreStatisticNames.OP_MKDIRS);
  }

  void stat() {
    store.incrementCounter(StoreStatisticNames.OP_GET_FILE_STATUS);
  }

  void read(long bytes) {
    store.incrementCounter(StreamStatisticNames.STREAM_READ_OPERATIONS);
    store.incrementCounter(StreamStatisticNames.STREAM_READ_BYTES, bytes);
  }

  void seek() {
    store.incrementCounter(StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS);
  }

  void written(long bytes) {
    store.incrementCounter(StreamStatisticNames.STREAM_WRITE_BYTES, bytes);
  }

  void synced(boolean hsync) {
    store.incrementCounter(hsync ? StoreStatisticNames.OP_HSYNC : StoreStatisticNames.OP_HFLUSH);
  }

  @Override
  public IOStatistics getIOStatistics() {
    return store;
  }

  /** The counters by name. */
  public Map<String, Long> counters() {
    return store.counters();
  }
}
