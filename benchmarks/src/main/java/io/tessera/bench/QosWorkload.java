package io.tessera.bench;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One application's load in {@code tessera bench qos}: {@code threadCount} threads, each on a file
 * of its own writing sequential 1 MiB blocks, or all on one shared file reading and writing random
 * 4-64 KiB.
 */
final class QosWorkload {
  final String app;
  final CreateOptions layout;
  final boolean random;
  final int threadCount;

  QosWorkload(String app, CreateOptions layout, boolean random, int threadCount) {
    this.app = app;
    this.layout = layout;
    this.random = random;
    this.threadCount = threadCount;
  }

  void run(TesseraFileSystem fs, AtomicLong bytes, long deadline) throws Exception {
    run(fs, bytes, deadline, threadCount, new AtomicBoolean());
  }

  void run(TesseraFileSystem fs, AtomicLong bytes, long deadline, int count, AtomicBoolean stop)
      throws Exception {
    List<Thread> ts = new ArrayList<>();
    List<Exception> errors = new ArrayList<>();
    if (random) {
      // one file for every thread: the application stays on that file's servers
      try (TesseraFile f = fs.createFile("/bench-qos/" + app + "-shared", layout.overwrite(true))) {
        f.write(0, new byte[16 << 20], 0, 16 << 20);
      }
    }
    for (int i = 0; i < count; i++) {
      String path = "/bench-qos/" + app + (random ? "-shared" : "-" + i);
      Thread t =
          new Thread(
              () -> {
                try {
                  try (TesseraFile f =
                      random ? fs.openFile(path) : fs.createFile(path, layout.overwrite(true))) {
                    loop(f, bytes, deadline, stop);
                  }
                } catch (Exception e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              });
      t.start();
      ts.add(t);
    }
    for (Thread t : ts) {
      t.join();
    }
    if (!errors.isEmpty()) {
      throw errors.get(0);
    }
  }

  private void loop(TesseraFile f, AtomicLong bytes, long deadline, AtomicBoolean stop)
      throws IOException {
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    long span = 64L << 20;
    byte[] buf = new byte[1 << 20];
    rnd.nextBytes(buf);
    if (random) {
      span = 16 << 20;
    }
    long pos = 0;
    while (System.nanoTime() < deadline && !stop.get()) {
      if (random) {
        int len = (4 + rnd.nextInt(61)) << 10;
        long at = rnd.nextLong(span - len);
        if (rnd.nextBoolean()) {
          f.write(at, buf, 0, len);
        } else {
          f.read(at, buf, 0, len);
        }
        bytes.addAndGet(len);
      } else {
        f.write(pos, buf, 0, buf.length);
        bytes.addAndGet(buf.length);
        pos = (pos + buf.length) % span;
      }
    }
  }
}
