package io.tessera.meta.recovery;

import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.RecoveryStatusProto;
import io.tessera.meta.state.NamespaceStore;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Rebuild (or drain) counters of one data server, with the rate over the last ten seconds, for
 * {@code tessera recover status}.
 */
final class RebuildProgress {
  private final long startedMs = System.currentTimeMillis();
  private final Deque<long[]> samples = new ArrayDeque<>();
  private long filesDone;
  private long bytesDone;
  private long failures;
  private String lastError = "";

  /**
   * Estimated bytes one server holds of these files: each server of a file holds about size / k of
   * it.
   */
  static long unitBytesOf(NamespaceStore ns, List<Long> fileIds) {
    long bytes = 0;
    for (long fileId : fileIds) {
      InodeProto in = ns.inode(fileId);
      if (in != null && in.getLayout().getDataUnits() > 0) {
        bytes += (in.getSize() + in.getLayout().getDataUnits() - 1) / in.getLayout().getDataUnits();
      }
    }
    return bytes;
  }

  synchronized long bytesDone() {
    return bytesDone;
  }

  /**
   * A rebuild began at {@code now} (System.nanoTime): after an idle stretch the rate restarts from
   * there.
   */
  synchronized void starting(long now) {
    if (samples.isEmpty() || now - samples.peekLast()[0] > 10_000_000_000L) {
      samples.clear();
      samples.addLast(new long[] {now, bytesDone});
    }
  }

  /** A file rebuilt: earlier failures are history (they are counted since the last success). */
  synchronized void done(long bytes) {
    filesDone++;
    bytesDone += bytes;
    failures = 0;
    lastError = "";
    long now = System.nanoTime();
    samples.addLast(new long[] {now, bytesDone});
    while (samples.size() > 2 && now - samples.peekFirst()[0] > 10_000_000_000L) {
      samples.removeFirst();
    }
  }

  /** Counts a failure; returns whether its reason differs from the last one (worth a log line). */
  synchronized boolean failed(String why) {
    failures++;
    String before = lastError;
    lastError = why == null ? "" : why;
    return !lastError.equals(before);
  }

  synchronized RecoveryStatusProto.Rebuild describe(String server, long filesLeft, long bytesLeft) {
    double rate = 0;
    if (samples.size() >= 2) {
      long[] first = samples.peekFirst();
      long[] last = samples.peekLast();
      double secs = (last[0] - first[0]) / 1e9;
      rate = secs > 0 ? (last[1] - first[1]) / secs : 0;
    }
    return RecoveryStatusProto.Rebuild.newBuilder()
        .setServer(server)
        .setFilesLeft(filesLeft)
        .setBytesLeft(bytesLeft)
        .setFilesDone(filesDone)
        .setBytesDone(bytesDone)
        .setRateBytesPerS(rate)
        .setStartedMs(startedMs)
        .setFailures(failures)
        .setLastError(lastError)
        .build();
  }
}
